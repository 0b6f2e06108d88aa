/**
 * What the plugin door (src/provider/native/nativeProvider.ts, pluginBags.ts) tells an
 * implementation in its `Call` instead of `__` keys, seen from outside, against the kit's emulator:
 * an implementation's warnings land on the resource's own row
 * (the engine's log, with its URN), never in the process's log; an auto-name is drawn from the
 * engine's `randomSeed`; state keeps only whether the name was drawn. The real-engine test of
 * the warning is test/e2e/scriptEdits.test.ts.
 */
import { NativeProvider } from "../../../src/provider/native/nativeProvider";
import { shippedSchema } from "../../../src/provider/native/schemaFile";
import { providerContext } from "../../../src/provider/account/context";
import { MACHINE_BASICS, useProviderKit } from "./providerTestKit";

const kit = useProviderKit();

const MACHINE = "urn:pulumi:dev::p::vmapi:index:Machine::box";
const SCRIPT = "urn:pulumi:dev::p::vmapi:index:Script::boot";

/** A plugin door whose engine log and process sinks record what they are sent. */
function recordedProvider() {
  const engine: Array<{ severity: string; message: string; urn?: string }> = [];
  const process: string[] = [];
  const context = providerContext({ progress: (m) => process.push(m), warn: (m) => process.push(m) });
  const provider = new NativeProvider(
    context,
    { log: (severity, message, urn) => engine.push({ severity, message, urn }) },
    shippedSchema(),
  );
  provider.configure(kit.settings);
  return { provider, engine, process };
}

test("diff: a Machine's scriptId changes → its warnings go to the engine's log on the machine's URN, none to the process's log", async () => {
  const { provider, engine, process } = recordedProvider();
  const olds = { ...MACHINE_BASICS, name: "box", templateId: "t1", scriptId: "sc1", __autoNamed: true };
  const diff = await provider.diff(MACHINE, "ps1", olds, {
    ...MACHINE_BASICS,
    templateId: "t1",
    scriptId: "sc2",
  });
  expect(diff.replaces).toContain("scriptId");
  const warnings = engine.filter((line) => line.severity === "warning");
  expect(warnings).toContainEqual({
    severity: "warning",
    message: expect.stringMatching(/will be REPLACED because its scriptId changes/),
    urn: MACHINE,
  });
  expect(warnings.every((line) => line.urn === MACHINE)).toBe(true);
  expect(process).toEqual([]);
});

test("check: no name → drawn from the engine's randomSeed; state keeps `__autoNamed` alone, and an earlier plugin's `__` keys are dropped", async () => {
  const { provider } = recordedProvider();
  const seed = Buffer.from("0123456789abcdef", "hex");
  const first = await provider.check(SCRIPT, {}, { scriptText: "echo hi\n" }, seed);
  expect(first.failures).toEqual([]);
  expect(first.inputs.name).toMatch(/^boot-[a-z0-9]{7}$/);
  expect(Object.keys(first.inputs).filter((key) => key.startsWith("__"))).toEqual(["__autoNamed"]);
  // The same seed draws the same name (a saved plan); another seed another one.
  expect((await provider.check(SCRIPT, {}, { scriptText: "echo hi\n" }, seed)).inputs.name).toBe(
    first.inputs.name,
  );
  const other = await provider.check(SCRIPT, {}, { scriptText: "echo hi\n" }, Buffer.from("ff", "hex"));
  expect(other.inputs.name).not.toBe(first.inputs.name);

  // State of an earlier plugin (its naming inputs beside the name): the name kept, its keys gone.
  const olds = { ...first.inputs, __resourceName: "boot", __namingSeed: "abc" };
  const again = await provider.check(SCRIPT, olds, { scriptText: "echo again\n" }, seed);
  expect(again.inputs.name).toBe(first.inputs.name);
  expect(Object.keys(again.inputs).filter((key) => key.startsWith("__"))).toEqual(["__autoNamed"]);
});

test("read: a refresh answers the stored inputs' keys alone, the API's values where it tells them and the stored ones where it cannot (a secret stays secret); an import's read answers every input the API tells", async () => {
  const { provider } = recordedProvider();
  const secretText = {
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    value: "echo hi\n",
  };
  const checked = await provider.check(
    SCRIPT,
    {},
    { scriptText: secretText, name: "boot-refresh" },
    Buffer.from("01", "hex"),
  );
  expect(checked.failures).toEqual([]);
  const created = await provider.create(SCRIPT, checked.inputs, 0);
  const stored = { ...checked.inputs, description: "declared, never reported" };

  const refreshed = await provider.read(SCRIPT, created.id!, created.properties!, stored);
  expect(Object.keys(refreshed.inputs!).sort()).toEqual(Object.keys(stored).sort());
  expect(refreshed.inputs).toEqual(stored);

  const imported = await provider.read(SCRIPT, created.id!, created.properties!);
  expect(imported.inputs).toMatchObject({ name: "boot-refresh", isEnabled: true, runOnce: false });
  expect(imported.inputs!.scriptText).toEqual(secretText);
  await provider.delete(SCRIPT, created.id!, created.properties!, 0);
});
