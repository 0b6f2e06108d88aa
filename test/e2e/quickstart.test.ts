/**
 * examples/quickstart end to end: the real program, the real plugin, the emulator.
 */
import * as path from "path";
import { UNKNOWN, isSecret } from "../../tools/engine/providerHarness";
import { hasNoChanges } from "../../tools/engine/programRunner";
import { EXAMPLES, expectSuccess, liveMachines, newStack, startE2eEmulator } from "./e2eKit";
import type { RunningEmulator } from "../../src/emulator";

/** Every output a Machine declares (src/provider/machine.ts), all present after `up`. */
const MACHINE_OUTPUTS = [
  "machineId",
  "os",
  "ram",
  "cpus",
  "gpu",
  "storageTotal",
  "storageUsed",
  "usageRate",
  "agentType",
  "dtCreated",
  "currentState",
  "updatesPending",
  "privateIpAddress",
  "publicIpAddress",
  "dtLastRun",
  "restorePointSnapshotId",
  "events",
];

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startE2eEmulator();
});
afterAll(() => emu.close());

test("quickstart: preview, up, preview, destroy → plan, ready machine, no changes, nothing left", async () => {
  const stack = newStack(emu, path.join(EXAMPLES, "quickstart", "index.ts"), emu.keys.individual);

  // The machine's scriptId is unknown until the script exists: check must accept it.
  const plan = expectSuccess(await stack.run("preview"));
  expect(plan.steps.map((s) => [s.op, s.name])).toEqual([
    ["create", "setup"],
    ["create", "trainer"],
  ]);
  expect(plan.outputs).toMatchObject({ machineId: UNKNOWN, scriptId: UNKNOWN });
  expect((await stack.emulator()).requestCounts["POST /machines/createSingleMachinePublic"]).toBeUndefined();

  const up = expectSuccess(await stack.run("up"));
  expect(up.steps.map((s) => [s.op, s.name])).toEqual([
    ["create", "setup"],
    ["create", "trainer"],
  ]);
  const { machineId, machineState, publicIp, scriptId } = up.outputs;
  expect(machineId).toMatch(/^ps/);
  expect(machineState).toBe("ready");
  expect(publicIp).toMatch(/^198\.1[89]\./);
  expect(scriptId).toMatch(/^sc/);
  // Outputs the program did not pass in are still there (auto-names included).
  expect(up.outputs.machineName).toMatch(/^trainer-[a-z0-9]{7}$/);
  expect(up.outputs.scriptName).toMatch(/^setup-[a-z0-9]{7}$/);
  expect(up.logs.plugin.some((l) => l.includes(`(${String(machineId)}): ready`))).toBe(true);

  const machines = liveMachines(await stack.emulator());
  expect(machines.map((m) => [m.id, m.state, m.scriptId])).toEqual([[machineId, "ready", scriptId]]);
  const trainer = stack.stackState.resources.find((r) => r.urn.endsWith("::trainer"))!;
  expect(Object.keys(trainer.outputs)).toEqual(expect.arrayContaining(MACHINE_OUTPUTS));
  expect(trainer.outputs).toMatchObject({ cpus: expect.any(Number), currentState: "ready", machineId });
  expect(isSecret(up.outputs.machineId)).toBe(false);

  const preview = expectSuccess(await stack.run("preview"));
  expect(hasNoChanges(preview)).toBe(true);
  expect(preview.steps).toHaveLength(2);

  const destroy = expectSuccess(await stack.run("destroy"));
  expect(destroy.steps.map((s) => [s.op, s.name])).toEqual([
    ["delete", "trainer"],
    ["delete", "setup"],
  ]);
  const after = await stack.emulator();
  expect(after.machines.every((m) => m.dtDestroyed !== null)).toBe(true);
  expect(after.scripts).toEqual([]);
  expect(stack.stackState.resources).toEqual([]);
});
