/**
 * Failures end to end with test/e2e/programs/machine: a machine that does not boot (no capacity)
 * stays in the state and the next `up` completes it; invalid inputs stop `preview` before any
 * machine is created.
 */
import * as path from "path";
import { setCapacity } from "../helpers/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { PROGRAMS, expectSuccess, liveMachines, newStack, startE2eEmulator } from "./e2eKit";

const PROGRAM = path.join(PROGRAMS, "machine");
const CREATE = "POST /machines/createSingleMachinePublic";

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await startE2eEmulator();
});
afterEach(() => emu.close());

test("up: no capacity at boot → fails with the reason, machine kept in state; next up → completes it", async () => {
  const stack = newStack(emu, PROGRAM, emu.keys.individual);
  await setCapacity(emu.url, { region: "East Coast (NY2)", machineType: "C4", failNextStarts: 1 });

  const failed = await stack.run("up");
  expect(failed.error).toContain("insufficient capacity for C4 in East Coast (NY2)");
  expect(failed.steps).toEqual([expect.objectContaining({ op: "create", failed: true })]);
  const [kept] = stack.stackState.resources;
  expect(kept.initErrors).toEqual([expect.stringContaining("insufficient capacity")]);
  expect(liveMachines(await stack.emulator()).map((m) => [m.id, m.state])).toEqual([[kept.id, "off"]]);

  const up = expectSuccess(await stack.run("up"));
  expect(up.steps.map((s) => [s.op, s.id])).toEqual([["update", kept.id]]);
  expect(up.outputs).toMatchObject({ machineId: kept.id, currentState: "ready" });
  expect(stack.stackState.resources[0].initErrors).toBeUndefined();
  const dump = await stack.emulator();
  expect(liveMachines(dump).map((m) => [m.id, m.state])).toEqual([[kept.id, "ready"]]);
  expect(dump.requestCounts[CREATE]).toBe(1);
});

test.each([
  ["an unknown region", { region: "Mars (MRS1)" }, "region"],
  ["a Windows template with a C4", { templateId: "twin1001" }, "machineType"],
  ["both public IP flags", { assignPublicIp: "true", dynamicPublicIp: "true" }, "dynamicPublicIp"],
])("preview: %s → fails naming the property, nothing created", async (_case, config, property) => {
  const stack = newStack(emu, PROGRAM, emu.keys.individual, config);
  const preview = await stack.run("preview");
  expect(preview.error).toMatch(
    new RegExp(`vmapi:Machine resource 'box's property '${property}' value .* has a problem: `),
  );
  expect(preview.steps).toEqual([]);
  expect((await stack.emulator()).requestCounts[CREATE]).toBeUndefined();
  expect(stack.stackState.resources).toEqual([]);
});
