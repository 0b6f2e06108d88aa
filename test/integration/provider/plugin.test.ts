/**
 * Our providers as the engine runs them: serialized exactly as `pulumi.dynamic.Resource` does,
 * executed inside the real dynamic-provider plugin process, called over gRPC, with the API key
 * given only through the stack config (see docs/harness.md for what this cannot cover).
 */
import * as fs from "fs";
import * as path from "path";
import {
  PartialFailureError,
  REPO_ROOT,
  UNKNOWN,
  dynamicInputs,
  isSecret,
  secret,
  serializeProviderLikeEngine,
  startProviderPlugin,
  type ProviderPlugin,
  type Props,
} from "../../../tools/engine/providerHarness";
import { providerStub, type ResourceKind } from "../../../src/provider/stub";
import { setCapacity, startTestEmulator } from "../../helpers/emulator";
import { VmApiClient } from "../../../src/client/client";

const API_KEY = "dev-individual-key";
const KINDS: ResourceKind[] = ["Machine", "Script", "ResourceDelegation", "MachineAccess"];

let emu: Awaited<ReturnType<typeof startTestEmulator>>;
let plugin: ProviderPlugin;
let client: VmApiClient;
let templateId: string;

beforeAll(async () => {
  if (!fs.existsSync(path.join(REPO_ROOT, "dist", "provider", "runtime.js"))) {
    throw new Error("dist/ is missing: run `npm run build` (npm test does it first)");
  }
  emu = await startTestEmulator({ clock: "manual" });
  client = new VmApiClient({ apiKey: API_KEY, baseUrl: emu.url });
  templateId = (await client.templates.list()).find((t) => t.os.toLowerCase().startsWith("ubuntu"))!.id;
  // The plugin's environment carries no key: only the stack config does.
  plugin = await startProviderPlugin({ env: { VMAPI_API_KEY: "", PAPERSPACE_API_KEY: "" } });
  await plugin.configure({
    "vmapi:apiKey": secret(API_KEY),
    "vmapi:baseUrl": emu.url,
    "vmapi:pollScale": "0.01",
  });
});
afterAll(async () => {
  await plugin?.close();
  await emu?.close();
});

async function readyMachine(name: string): Promise<string> {
  const machine = await client.machines.create({
    region: "East Coast (NY2)",
    machineType: "C4",
    size: 50,
    billingType: "hourly",
    machineName: name,
    templateId,
  });
  emu.advance(10 * 60_000);
  return machine.id;
}

describe("serialized providers", () => {
  for (const kind of KINDS) {
    it(`serialize: ${kind} provider → small text without any credential`, async () => {
      const text = await serializeProviderLikeEngine(providerStub(kind));
      expect(text).not.toContain(API_KEY);
      expect(text).not.toMatch(/apiKey\s*[:=]\s*"/);
      expect(text).toContain(`"${kind}"`);
      expect(text.length).toBeLessThan(6000);
    });
  }
});

describe("Machine through the plugin", () => {
  it("check: bad region at preview → failure naming region; unknown values pass", async () => {
    const urn = plugin.urn("bad");
    const news = await dynamicInputs(providerStub("Machine"), {
      __resourceName: "bad",
      region: "Mars",
      machineType: "C4",
      size: 50,
      billingType: "hourly",
      templateId: UNKNOWN,
    });
    const { failures } = await plugin.check(urn, {}, news, { preview: true });
    expect(failures).toEqual([{ property: "region", reason: expect.stringContaining("East Coast (NY2)") }]);
  });

  it("adopt, read, rename in place, delete: outputs and logs never hold the key", async () => {
    const machineId = await readyMachine("adopt-me");
    const urn = plugin.urn("adopted");
    const news = await dynamicInputs(providerStub("Machine"), {
      __resourceName: "adopted",
      region: "East Coast (NY2)",
      machineType: "C4",
      size: 50,
      billingType: "hourly",
      templateId,
      adoptMachineId: machineId,
      name: "adopt-me", // adoption changes nothing: the declared name is the machine's
    });
    const { inputs, failures } = await plugin.check(urn, {}, news);
    expect(failures).toEqual([]);
    const { id, outs } = await plugin.create(urn, inputs);
    expect(id).toBe(machineId);
    expect(outs).toMatchObject({ name: "adopt-me", currentState: "ready", machineId });

    const read = await plugin.read(id, urn, outs, inputs);
    expect(read.id).toBe(id);

    const renamed = { ...inputs, name: "renamed-box" };
    const diff = await plugin.diff(id, urn, outs, renamed, { oldInputs: inputs });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const { outs: updated } = await plugin.update(id, urn, outs, renamed, { oldInputs: inputs });
    expect(updated.name).toBe("renamed-box");
    expect((await client.machines.get(id)).name).toBe("renamed-box");

    const deleting = plugin.delete(id, urn, updated, { oldInputs: renamed });
    setTimeout(() => emu.advance(10 * 60_000), 100);
    await deleting;
    await expect(client.machines.get(id)).rejects.toMatchObject({ status: 404 });

    await plugin.flushLogs(200);
    const everything = JSON.stringify({ outs, updated, read, logs: plugin.logs });
    expect(everything).not.toContain(API_KEY);
  });
});

describe("Machine partial failure through the plugin", () => {
  it("create: start fails for capacity → partial failure with id, outputs and __provider; progress logged", async () => {
    await setCapacity(emu.url, { region: "Europe (AMS1)", machineType: "C7", failNextStarts: 1 });
    const urn = plugin.urn("unlucky");
    const news = await dynamicInputs(providerStub("Machine"), {
      __resourceName: "unlucky",
      region: "Europe (AMS1)",
      machineType: "C7",
      size: 50,
      billingType: "hourly",
      templateId,
    });
    const { inputs } = await plugin.check(urn, {}, news);
    plugin.clearLogs();
    const creating = plugin.create(urn, inputs);
    // The provider's first poll sees provisioning; then the emulator's clock runs past the failure.
    await plugin.waitForLog(/unlucky.*provisioning, waiting for ready/);
    emu.advance(10 * 60_000);
    const error = await creating.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PartialFailureError);
    const failure = error as PartialFailureError;
    expect(failure.reasons.join(" ")).toMatch(/capacity/i);
    expect(failure.outs).toMatchObject({ machineId: failure.id, currentState: "off", state: "ready" });
    expect(typeof failure.outs.__provider).toBe("string");
    // The engine keeps it in state; the next up sees a change of state and completes it in place.
    const diff = await plugin.diff(failure.id, urn, failure.outs, inputs, { oldInputs: inputs });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("Script through the plugin", () => {
  it("create with a secret text → text stays secret in outputs; delete removes it", async () => {
    const urn = plugin.urn("boot");
    const news: Props = await dynamicInputs(providerStub("Script"), {
      __resourceName: "boot",
      scriptText: secret("echo secret-token-123"),
    });
    const { inputs } = await plugin.check(urn, {}, news);
    const { id, outs } = await plugin.create(urn, inputs);
    expect(isSecret(outs.scriptText)).toBe(true);
    expect(outs).toMatchObject({ ownerType: "user", scriptId: id });
    expect(await client.scripts.text(id)).toBe("echo secret-token-123");
    await plugin.delete(id, urn, outs, { oldInputs: inputs });
    await expect(client.scripts.get(id)).rejects.toMatchObject({ status: 404 });
  });
});
