/**
 * The provider harness against the real dynamic-provider plugin, with a trivial file-backed provider.
 * One plugin process for the whole file.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import {
  PartialFailureError,
  ProviderRpcError,
  HarnessUsageError,
  Secret,
  UNKNOWN,
  dynamicInputs,
  dynamicUrn,
  isSecret,
  reveal,
  secret,
  serializeProvider,
  serializeProviderLikeEngine,
  startProviderPlugin,
  type ProviderPlugin,
  type Props,
} from "../../../tools/engine/providerHarness";

const API_KEY = "sk-config-key-5f2a9c"; // passed only through config
const LEAKY_MODULE_KEY = "sk-module-level-77e1"; // referenced by leakyProvider only
const STATE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-harness-"));

interface VmInputs {
  name: string;
  size?: string;
  password?: string;
  failSettle?: boolean;
  badOutput?: boolean;
}
interface VmProvider extends pulumi.dynamic.ResourceProvider<VmInputs, Record<string, unknown>> {
  settings: { baseUrl?: string; hasKey: boolean };
}

// Trivial provider: one JSON file per resource in STATE_DIR (captured by value: it is a string).
const vmProvider: VmProvider = {
  settings: { hasKey: false },
  async configure(req) {
    this.settings = {
      baseUrl: req.config.get("vmapi:baseUrl"),
      hasKey: req.config.get("vmapi:apiKey") !== undefined,
    };
  },
  async check(_olds, news) {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const failures = news.name ? [] : [{ property: "name", reason: "name is required" }];
    return { inputs: { ...news, checkSawUnknownSize: news.size === unknown }, failures };
  },
  async diff(_id, olds, news) {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const replaces = olds.name !== news.name || news.size === unknown ? ["name"] : [];
    if (news.size === unknown) replaces.push("size");
    const changes = replaces.length > 0 || olds.size !== news.size || olds.password !== news.password;
    return { changes, replaces, deleteBeforeReplace: replaces.length > 0 };
  },
  async create(inputs) {
    const fsm = require("fs");
    const pathm = require("path");
    await pulumi.log.info(`progress: creating ${inputs.name}`);
    const id = `vm-${inputs.name}`;
    const { __provider: _p, ...rest } = inputs as VmInputs & { __provider?: string };
    const outs = {
      ...rest,
      status: "running",
      passwordLength: (inputs.password ?? "").length, // derived from a secret, NOT marked secret
      token: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "tok-1" },
      baseUrl: this.settings.baseUrl,
      hasKey: this.settings.hasKey,
      badOutput: inputs.badOutput ? undefined : null,
    };
    if (inputs.failSettle) {
      throw Object.assign(new Error("machine did not settle"), {
        id,
        properties: { ...rest, status: "error" },
        reasons: ["machine stuck in provisioning"],
      });
    }
    fsm.writeFileSync(pathm.join(STATE_DIR, `${id}.json`), JSON.stringify(outs));
    return { id, outs };
  },
  async read(id, props) {
    const fsm = require("fs");
    const file = require("path").join(STATE_DIR, `${id}.json`);
    if (!fsm.existsSync(file)) return {};
    const live = JSON.parse(fsm.readFileSync(file, "utf8"));
    return { id, props: { ...props, ...live }, inputs: { name: live.name, size: live.size } };
  },
  async update(id, _olds, news) {
    const fsm = require("fs");
    const file = require("path").join(STATE_DIR, `${id}.json`);
    const outs = { ...JSON.parse(fsm.readFileSync(file, "utf8")), size: news.size, updated: true };
    fsm.writeFileSync(file, JSON.stringify(outs));
    return { outs };
  },
  async delete(id) {
    require("fs").rmSync(require("path").join(STATE_DIR, `${id}.json`), { force: true });
  },
};

// Same shape, but a method references a module-level constant: it is captured by value.
const leakyProvider: pulumi.dynamic.ResourceProvider = {
  async create() {
    return { id: "x", outs: { auth: `Bearer ${LEAKY_MODULE_KEY}` } };
  },
};

let plugin: ProviderPlugin;

beforeAll(async () => {
  plugin = await startProviderPlugin();
  await plugin.configure({ "vmapi:apiKey": secret(API_KEY), "vmapi:baseUrl": "http://127.0.0.1:9" });
});

afterAll(async () => {
  await plugin?.close();
  fs.rmSync(STATE_DIR, { recursive: true, force: true });
});

test("urn helper builds dynamic resource URNs", () => {
  expect(dynamicUrn("web")).toBe("urn:pulumi:stack::project::pulumi-nodejs:dynamic:Resource::web");
  expect(dynamicUrn("web", { module: "vmapi", type: "Machine", parentType: "vmapi:index:Cluster" })).toBe(
    "urn:pulumi:stack::project::vmapi:index:Cluster$pulumi-nodejs:dynamic/vmapi:Machine::web",
  );
  expect(plugin.urn("a")).toBe(dynamicUrn("a"));
});

test("round trip: check, create, read, diff, update, delete", async () => {
  const urn = plugin.urn("vm1");
  const news = await dynamicInputs(vmProvider, { name: "vm1", size: "small", password: secret("hunter2") });

  const checked = await plugin.check(urn, {}, news);
  expect(checked.failures).toEqual([]);
  expect(checked.inputs.checkSawUnknownSize).toBe(false);
  expect(checked.inputs.password).toEqual(secret("hunter2")); // re-annotated by the engine

  const created = await plugin.create(urn, checked.inputs);
  expect(created.providerCalled).toBe(true);
  expect(created.id).toBe("vm-vm1");
  expect(created.outs).toMatchObject({ name: "vm1", size: "small", status: "running", badOutput: null });
  expect(created.outs.__provider).toBe(news.__provider); // merged back by the plugin
  expect(created.outs).toMatchObject({ baseUrl: "http://127.0.0.1:9", hasKey: true }); // configure() ran
  expect(fs.existsSync(path.join(STATE_DIR, "vm-vm1.json"))).toBe(true);

  const read = await plugin.read(created.id, urn, created.outs, checked.inputs);
  expect(read.id).toBe("vm-vm1");
  expect(read.props.status).toBe("running");
  expect(read.inputs).toEqual({ name: "vm1", size: "small", __provider: news.__provider });

  const same = await plugin.diff(created.id, urn, created.outs, checked.inputs, {
    oldInputs: checked.inputs,
  });
  expect(same).toMatchObject({
    changes: false,
    changesKind: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });

  const bigger = { ...checked.inputs, size: "large" };
  const resized = await plugin.diff(created.id, urn, created.outs, bigger, { oldInputs: checked.inputs });
  expect(resized).toMatchObject({ changes: true, changesKind: "some", replaces: [], diffs: [] });
  const renamed = await plugin.diff(created.id, urn, created.outs, { ...bigger, name: "vm2" });
  expect(renamed).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: true });

  const updated = await plugin.update(created.id, urn, created.outs, bigger, { oldInputs: checked.inputs });
  expect(updated.outs).toMatchObject({ size: "large", updated: true });
  expect(updated.outs.__provider).toBe(news.__provider);

  await plugin.delete(created.id, urn, updated.outs, { oldInputs: bigger });
  expect(fs.existsSync(path.join(STATE_DIR, "vm-vm1.json"))).toBe(false);
  const gone = await plugin.read(created.id, urn, updated.outs, bigger);
  expect(gone.id).toBe("");
});

test("secrets: stripped on the way in, same-named outputs re-marked, derived outputs are not", async () => {
  const urn = plugin.urn("sec");
  const inputs = await dynamicInputs(vmProvider, { name: "sec", password: secret("s3cret-pw") });
  const { outs } = await plugin.create(urn, inputs);
  expect(outs.password).toEqual(secret("s3cret-pw"));
  expect(isSecret(outs.password)).toBe(true);
  // The engine only marks outputs whose input of the same name was secret:
  expect(outs.passwordLength).toBe(9);
  // A provider can return a secret explicitly with the wire signature object:
  expect(outs.token).toBeInstanceOf(Secret);
  expect(reveal(outs.token)).toBe("tok-1");
  await plugin.delete(`vm-sec`, urn, outs);
});

test("unknown sentinel reaches check and diff during preview; preview create does not call the provider", async () => {
  const urn = plugin.urn("prev");
  const news = await dynamicInputs(vmProvider, { name: "prev", size: UNKNOWN });

  const checked = await plugin.check(urn, {}, news, { preview: true });
  expect(checked.inputs.checkSawUnknownSize).toBe(true);
  expect(checked.inputs.size).toBe(UNKNOWN);

  const olds: Props = { ...news, size: "small" };
  const d = await plugin.diff("vm-prev", urn, olds, news, { preview: true });
  expect(d.replaces).toEqual(["name", "size"]);

  const created = await plugin.create(urn, checked.inputs, { preview: true });
  expect(created).toEqual({ id: "", outs: checked.inputs, providerCalled: false });
  expect(plugin.protocol).toMatchObject({ acceptSecrets: false, supportsPreview: false });
  expect(fs.existsSync(path.join(STATE_DIR, "vm-prev.json"))).toBe(false);
  const updated = await plugin.update("vm-prev", urn, olds, news, { preview: true });
  expect(updated).toEqual({ outs: news, providerCalled: false });

  await expect(plugin.check(urn, {}, news)).rejects.toBeInstanceOf(HarnessUsageError);
});

test("a provider without diff answers DIFF_UNKNOWN; the engine then compares old and new inputs", async () => {
  const urn = plugin.urn("nodiff");
  const olds = await dynamicInputs(leakyProvider, { name: "a" });
  const same = await plugin.diff("x", urn, { ...olds, auth: "out" }, olds, { oldInputs: olds });
  expect(same).toMatchObject({ changesKind: "unknown", changes: false, replaces: [] });
  const changed = await plugin.diff("x", urn, olds, { ...olds, name: "b" }, { oldInputs: olds });
  expect(changed).toMatchObject({ changesKind: "unknown", changes: true, replaces: [] });
});

test("check failures come back as failures, not errors", async () => {
  const inputs = await dynamicInputs(vmProvider, { size: "small" });
  const res = await plugin.check(plugin.urn("noname"), {}, inputs);
  expect(res.failures).toEqual([{ property: "name", reason: "name is required" }]);
});

test("partial failure: id, properties and reasons surface as PartialFailureError", async () => {
  const urn = plugin.urn("stuck");
  const inputs = await dynamicInputs(vmProvider, { name: "stuck", password: secret("pw"), failSettle: true });
  const err = await plugin.create(urn, inputs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PartialFailureError);
  const pf = err as PartialFailureError;
  expect(pf.id).toBe("vm-stuck");
  expect(pf.reasons).toEqual(["machine stuck in provisioning"]);
  expect(pf.details).toBe("machine did not settle"); // the provider's message: the engine does not show it
  expect(pf.message).toBe("1 error occurred:\n\t* machine stuck in provisioning\n\n");
  expect(pf.outs).toMatchObject({ name: "stuck", status: "error" });
  expect(pf.outs.password).toEqual(secret("pw"));
  expect(pf.outs.__provider).toBeUndefined(); // not merged for errors: include it yourself
  // ...otherwise the state the engine keeps cannot be deleted (or refreshed) later:
  await expect(plugin.delete(pf.id, urn, pf.outs)).rejects.toMatchObject({
    details: "code must be a string, not undefined",
  });
});

test("plain provider errors and unserializable outputs surface as ProviderRpcError", async () => {
  const inputs = await dynamicInputs(vmProvider, { name: "bad", badOutput: true });
  const err = await plugin.create(plugin.urn("bad"), inputs).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderRpcError);
  expect(err).not.toBeInstanceOf(PartialFailureError);
  expect((err as ProviderRpcError).details).toBe("Unexpected struct type.");
  expect((err as ProviderRpcError).statusUnknown).toBe(true);
  await plugin.delete("vm-bad", plugin.urn("bad"), inputs); // it wrote its file before failing
});

test("closure capture is visible in the serialized provider", async () => {
  const clean = await serializeProviderLikeEngine(vmProvider);
  expect(clean).toContain("exports.handler");
  expect(clean).not.toContain(API_KEY);
  expect(clean).not.toContain(LEAKY_MODULE_KEY);
  expect(clean).toContain(STATE_DIR); // module-level strings are captured by value

  const leaky = await serializeProviderLikeEngine(leakyProvider);
  expect(leaky).toContain(LEAKY_MODULE_KEY);
});

test("a closure capturing a secret Output makes __provider secret, in inputs and outputs", async () => {
  const secretOut = pulumi.secret("closure-secret-value");
  const p: pulumi.dynamic.ResourceProvider = {
    async create() {
      return { id: "s1", outs: { hint: typeof secretOut } };
    },
  };
  const sp = await serializeProvider(p);
  expect(sp.containsSecrets).toBe(true);
  expect(sp.text).toContain("closure-secret-value"); // plaintext inside the text itself
  const inputs = await dynamicInputs(p, {});
  expect(inputs.__provider).toBeInstanceOf(Secret);
  const { outs } = await plugin.create(plugin.urn("closure"), inputs);
  expect(outs.__provider).toBeInstanceOf(Secret);
});

test("pulumi.log.info from provider code is captured; config secrets are not printed", async () => {
  const inputs = await dynamicInputs(vmProvider, { name: "logged" });
  const { id, outs } = await plugin.create(plugin.urn("logged"), inputs);
  // Like the real engine: no PULUMI_NODEJS_ENGINE for plugins, so the SDK prints to stdout.
  expect(await plugin.waitForLog("progress: creating logged")).toBe(
    "info: [runtime] progress: creating logged",
  );
  expect(plugin.logEntries.find((e) => e.message.includes("creating logged"))?.source).toBe("stdout");
  await plugin.delete(id, plugin.urn("logged"), outs);
  await plugin.flushLogs();
  expect(plugin.logs.join("\n")).not.toContain(API_KEY);
});
