/**
 * State written by version 0.1.0 keeps working on the real engine. The fixture is a `stack export`
 * of test/e2e/programs/machine made by 0.1.0: its `__provider` text is that version's stub,
 * which captured the absolute path of the machine that ran the program (a folder that does not
 * exist here) and resolves the runtime by package name first. Refresh, preview and destroy run
 * the old text against today's runtime.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useE2eContext, PROGRAMS, liveMachines } from "./support/kit";
import { expectExit, steps } from "./support/cli";
import type { EngineStack, StateResource } from "./support/engineStack";
import { SEEDED } from "../kit/seeded";
import { MACHINE_BASICS } from "../kit/machines";

jest.setTimeout(180_000);

const FIXTURE = path.join(__dirname, "fixtures", "machine-stack-0.1.0.json");
/** The runtime's absolute path that 0.1.0 captured, and a folder of another machine in its place. */
const WRITER_PATH = "/work/main/dist/provider/runtime.js";
const ELSEWHERE = "/home/someone-else/infra/node_modules/pulumi-vmapi/dist/provider/runtime.js";

const ctx = useE2eContext();

/**
 * The fixture rewritten for `stack`: its name, the emulator, the machine's id, and the key
 * encrypted by the stack's own passphrase. State holds secrets JSON-encoded, so the key is set
 * once more as a secret config value in that form, to read its ciphertext, then removed.
 */
async function deploymentFor(
  stack: EngineStack,
  machineId: string,
  edit: (machine: StateResource) => void = () => undefined,
): Promise<string> {
  await stack.setConfig({ stateFormKey: { secret: JSON.stringify(ctx.emu.keys.individual) } });
  const stackConfig = fs.readFileSync(path.join(stack.programDir, `Pulumi.${stack.name}.yaml`), "utf8");
  await stack.removeConfig("stateFormKey");
  const salt = /^encryptionsalt: (\S+)$/m.exec(stackConfig)![1];
  const keyCiphertext = /stateFormKey:\s+secure: (\S+)/.exec(stackConfig)![1];
  const encryptedKey = JSON.stringify({
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    ciphertext: keyCiphertext,
  });
  const deployment = JSON.parse(
    fs
      .readFileSync(FIXTURE, "utf8")
      .replaceAll("__STACK__", stack.name)
      .replaceAll("__MACHINE_ID__", machineId)
      .replaceAll("__BASE_URL__", ctx.emu.url)
      .replaceAll('"__API_KEY__"', encryptedKey)
      // The machine that wrote it: its folder is nowhere here, so the runtime must resolve by package name.
      .replaceAll(WRITER_PATH, ELSEWHERE),
  );
  deployment.deployment.secrets_providers = { type: "passphrase", state: { salt } };
  edit(deployment.deployment.resources.find((r: StateResource) => r.id === machineId));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-old-state-")), "state.json");
  fs.writeFileSync(file, JSON.stringify(deployment));
  return file;
}

/** A machine made out of band, as the fixture's was, ready. */
async function readyMachine(name: string) {
  const client = ctx.client();
  const machine = await client.machines.create({
    ...MACHINE_BASICS,
    machineName: name,
    templateId: SEEDED.headlessTemplate,
  });
  await client.machines.waitFor(machine.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  return machine;
}

test("0.1.0 state: refresh keeps the machine, preview plans no replace and shows no internal input, destroy deletes it", async () => {
  const fixture = fs.readFileSync(FIXTURE, "utf8");
  expect(fixture).toContain(`absolutePath: \\"${WRITER_PATH}\\"`);
  expect(fs.existsSync(path.dirname(ELSEWHERE))).toBe(false);
  const machine = await readyMachine("old-state");
  const stack = await ctx.stack(path.join(PROGRAMS, "machine"), ctx.emu.keys.individual, {
    name: "old-state",
  });
  await stack.ok(["stack", "import", "--file", await deploymentFor(stack, machine.id)]);

  const refresh = await stack.refresh();
  expect(refresh.code).toBe(0);
  expect((await stack.resources()).map((r) => r.id)).toEqual([machine.id]);

  // Resource options that 0.1.0 never stored travel as internal inputs: never a change, never shown.
  await stack.setConfig({
    customTimeouts: JSON.stringify({ create: "20m", update: "20m", delete: "20m" }),
    replaceOnChanges: JSON.stringify(["region"]),
  });
  const preview = await stack.preview("--diff");
  expect(preview.code).toBe(0);
  expect(steps(preview).filter((s) => s.op !== "same" && s.op !== "update")).toEqual([]);
  expect(
    steps(preview)
      .flatMap((s) => s.diffs ?? [])
      .filter((key) => key.startsWith("__")),
  ).toEqual([]);
  expect(preview.stdout).not.toMatch(/__customTimeouts|__replaceOnChanges|customTimeouts/);

  const destroy = await stack.destroy();
  expect(destroy.code).toBe(0);
  expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(machine.id);
});

test("0.1.0 state of an auto-named machine (random suffix, no naming seed) → preview shows no change; a power-state change shows `state` alone and keeps the name", async () => {
  const autoName = "box-x1y2z3q";
  const machine = await readyMachine(autoName);
  const stack = await ctx.stack(path.join(PROGRAMS, "machine"), ctx.emu.keys.individual);
  const asAutoNamed = (r: StateResource) => {
    // As 0.1.0 wrote an auto-named machine: its name and the __autoNamed mark, inputs and outputs alike.
    for (const props of [r.inputs!, r.outputs!]) Object.assign(props, { name: autoName, __autoNamed: true });
  };
  await stack.ok(["stack", "import", "--file", await deploymentFor(stack, machine.id, asAutoNamed)]);

  const same = expectExit(await stack.preview("--expect-no-changes"));
  expect(steps(same).map((s) => s.op)).toEqual(["same"]);

  await stack.setConfig({ state: "off" });
  const preview = expectExit(await stack.preview("--diff"));
  expect(steps(preview).map((s) => s.op)).toEqual(["update"]);
  // The step's old and new inputs, as the event log and `preview --json` carry them (a review
  // compares them): `state` alone differs, besides `__provider`, 0.1.0's text against today's.
  const [step] = steps(preview);
  const inputKeys = new Set([...Object.keys(step.old!.inputs!), ...Object.keys(step.new!.inputs!)]);
  const changed = [...inputKeys].filter(
    (k) => JSON.stringify(step.old!.inputs![k]) !== JSON.stringify(step.new!.inputs![k]),
  );
  expect(changed.sort()).toEqual(["__provider", "state"]);
  // The machine's diff, up to the stack's outputs (the fixture's stack output `name` was another machine's).
  const box = preview.stdout.slice(
    preview.stdout.indexOf("vmapi:Machine"),
    preview.stdout.indexOf("--outputs:--"),
  );
  expect(box).toMatch(/~ state\s*: "ready" => "off"/);
  expect(box).not.toMatch(/__namingSeed|__resourceName|__autoNamed|[-+~] name\b/);
  expectExit(await stack.up());
  const [after] = (await ctx.emulator()).machines.filter((m) => m.id === machine.id);
  expect(after).toMatchObject({ name: autoName, state: "off", dtDestroyed: null });
  expect((await stack.outputs()).name).toBe(autoName);
  expectExit(await stack.destroy());
});
