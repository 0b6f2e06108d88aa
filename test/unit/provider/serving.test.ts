/**
 * The serving layer (src/provider/shared/serving.ts): what every resource owes the engine's
 * contract, applied once under both doors. Each rule is seen through the TypeScript door
 * (dynamicProvider over a served recorder, so the rule cannot come from an implementation) and
 * through the plugin door (NativeProvider over the real kinds, whose checks and diffs send
 * nothing). The real-engine proofs: test/e2e/resourceOptions.test.ts (replaceOnChanges on a
 * MachineRestart of a TypeScript program) and test/e2e/secrets.test.ts.
 */
import { Accounts } from "../../../src/provider/account/accounts";
import { dynamicProvider } from "../../../src/provider/dynamic/dynamicProvider";
import { implementationOf, type Implementation } from "../../../src/provider/implementations";
import { NativeProvider } from "../../../src/provider/native/nativeProvider";
import { resourceFacts } from "../../../src/provider/native/pluginBags";
import { shippedSchema } from "../../../src/provider/native/schemaFile";
import { urnIdentity } from "../../../src/contract/unfinishedCreates";
import { providerContext } from "../../../src/provider/account/context";
import { ResourceInitError } from "../../../src/provider/shared/partialFailure";
import type { Call } from "../../../src/provider/shared/resourceImplementation";
import { served } from "../../../src/provider/shared/serving";
import { OFFLINE_SETTINGS } from "../../kit/providers";

/** A resource as its declaration says it (the serving layer reads its kind and its inputs). */
const WIDGET = { kind: "Widget", inputNames: ["size", "zone", "secretWord"] } as const;

/** Lines an implementation or the door sent, by sink. */
interface Lines {
  progress: string[];
  warn: string[];
}

/** The TypeScript door over the served `impl` (its missing methods answer `{}`), and the lines its calls sent. */
function dynamicDoor(impl: Partial<Implementation>) {
  const lines: Lines = { progress: [], warn: [] };
  const context = providerContext({
    progress: (l) => lines.progress.push(l),
    warn: (l) => lines.warn.push(l),
  });
  const answer = async () => ({});
  const full = {
    check: answer,
    diff: answer,
    create: answer,
    read: answer,
    update: answer,
    delete: answer,
    ...impl,
  };
  const door = dynamicProvider(
    served(WIDGET, full as Implementation),
    new Accounts(OFFLINE_SETTINGS, context),
  );
  return { door, lines };
}

/** The plugin door on an account nothing listens at, its engine log recorded. */
function pluginDoor() {
  const engine: Array<{ severity: string; message: string }> = [];
  const provider = new NativeProvider(
    providerContext(),
    { log: (severity, message) => engine.push({ severity, message }) },
    shippedSchema(),
  );
  provider.configure(OFFLINE_SETTINGS);
  return { provider, engine };
}

const RESTART = "urn:pulumi:dev::p::vmapi:index:Machine$vmapi:index:MachineRestart::box-restart";
const secret = (value: unknown) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  value,
});

describe("replaceOnChanges", () => {
  it("TypeScript door, check: a path that names no input → a failure naming it and the inputs", async () => {
    const { door } = dynamicDoor({ check: async (_o, news) => ({ inputs: news, failures: [] }) });
    const { failures } = await door.check({}, { size: 1, __replaceOnChanges: ["sise", "zone"] });
    expect(failures).toEqual([
      {
        property: "",
        reason:
          'replaceOnChanges names "sise", not an input of Widget; its inputs: size, zone, secretWord (or "*")',
      },
    ]);
  });

  it("TypeScript door, diff: an in-place change a path names → it replaces, whatever the implementation's diff said", async () => {
    const { door } = dynamicDoor({ diff: async () => ({ changes: true, replaces: [] }) });
    const olds = { size: 1, zone: "a" };
    expect(await door.diff("w1", olds, { size: 2, zone: "a" })).toEqual({
      changes: true,
      replaces: [],
      changed: ["size"],
    });
    const named = await door.diff("w1", olds, { size: 2, zone: "a", __replaceOnChanges: ["size"] });
    expect(named).toMatchObject({ changes: true, replaces: ["size"] });
    const all = await door.diff("w1", olds, { size: 2, zone: "a", __replaceOnChanges: ["*"] });
    expect(all).toMatchObject({ replaces: ["size"] });
  });

  it("TypeScript door, MachineRestart: replaceOnChanges ['triggers'] and a changed trigger → replaced, not restarted in place", async () => {
    const door = dynamicProvider(
      implementationOf("MachineRestart"),
      new Accounts(OFFLINE_SETTINGS, providerContext()),
    );
    const olds = { machineId: "ps1", triggers: ["sc1"], state: "ready", currentState: "ready" };
    const news = { machineId: "ps1", triggers: ["sc2"], state: "ready" };
    expect(await door.diff("ps1/restart", olds, news)).toMatchObject({ changes: true, replaces: [] });
    expect(await door.diff("ps1/restart", olds, { ...news, __replaceOnChanges: ["triggers"] })).toMatchObject(
      {
        changes: true,
        replaces: ["triggers"],
      },
    );
  });

  it("plugin door, diff: the changed inputs named, so the engine applies the option itself", async () => {
    const { provider } = pluginDoor();
    const olds = { machineId: "ps1", triggers: ["sc1"], state: "ready", currentState: "ready" };
    const diff = await provider.diff(RESTART, "ps1/restart", olds, { ...olds, triggers: ["sc2"] });
    expect(diff).toMatchObject({ changes: true, replaces: [], diffs: ["triggers"] });
  });
});

describe("secrets", () => {
  it("TypeScript door, check: a failure on a secret input → neither its property nor its value printed", async () => {
    const { door } = dynamicDoor({
      check: async (_o, news) => ({
        inputs: news,
        failures: [
          { property: "secretWord", reason: `secretWord must be short (got "${String(news.secretWord)}")` },
        ],
      }),
    });
    const { failures } = await door.check({}, { secretWord: "hunter2-long", __secretInputs: ["secretWord"] });
    expect(failures).toEqual([{ property: "", reason: "secretWord must be short (got a secret value)" }]);
  });

  it("plugin door, check: a MachineRestart whose secret state is none → the failure without the property or the value", async () => {
    const { provider } = pluginDoor();
    const { failures } = await provider.check(
      RESTART,
      {},
      { machineId: "ps1", triggers: [], state: secret("sleeping-deeply") },
      Buffer.alloc(0),
    );
    expect(failures).toEqual([
      { property: "", reason: 'state must be "ready" or "off" (got a secret value)' },
    ]);
  });

  it("TypeScript door: a progress line, a warning and an error quoting a secret input → its value masked in each", async () => {
    const { door, lines } = dynamicDoor({
      create: async (inputs, call) => {
        call.progress(`creating with ${String(inputs.secretWord)}`);
        call.warn(`careful with ${String(inputs.secretWord)}`);
        throw new Error(`the API refused ${String(inputs.secretWord)}`);
      },
    });
    const error = (await door
      .create({ secretWord: "SECRET-pw-value", __secretInputs: ["secretWord"] })
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toBe("the API refused [secret]");
    expect(error.stack).not.toContain("SECRET-pw-value");
    expect(lines).toEqual({ progress: ["creating with [secret]"], warn: ["careful with [secret]"] });
  });
});

describe("partial failures", () => {
  it("TypeScript door: create fails part-way → the properties keep what the door keeps (internal inputs)", async () => {
    const { door } = dynamicDoor({
      create: async () => {
        throw new ResourceInitError("w1", { size: 1 }, new Error("did not settle"));
      },
    });
    const error = (await door
      .create({ size: 1, __resourceName: "w" })
      .catch((e: unknown) => e)) as ResourceInitError;
    expect(error.properties).toEqual({ size: 1, __resourceName: "w" });
  });
});

describe("the call an implementation is given", () => {
  it("TypeScript door: the operation's timeout read from customTimeouts, named as written", async () => {
    const calls: Call[] = [];
    const { door } = dynamicDoor({
      create: async (_inputs, call) => {
        calls.push(call);
        return { id: "w1", outs: {} };
      },
    });
    await door.create({ size: 1, __customTimeouts: { create: "90s" } });
    expect(calls[0].timeout).toEqual({ ms: 90_000, label: "customTimeouts.create (90s)" });
  });

  it("plugin door: the resource's identity is its URN's digest; its naming seed the engine's randomSeed, else that identity", () => {
    const urn = "urn:pulumi:dev::p::vmapi:index:Machine::box";
    expect(resourceFacts(urn, false)).toEqual({
      name: "box",
      identity: urnIdentity(urn),
      namingSeed: urnIdentity(urn),
      autoNamed: false,
    });
    expect(resourceFacts(urn, true, "ab12")).toEqual({
      name: "box",
      identity: urnIdentity(urn),
      namingSeed: "ab12",
      autoNamed: true,
    });
  });
});
