/**
 * examples/team and examples/data-sources end to end: up, a preview without changes, destroy.
 */
import * as path from "path";
import { isSecret, secret } from "../../tools/engine/providerHarness";
import { hasNoChanges } from "../../tools/engine/programRunner";
import { fromWire } from "../../tools/engine/programRunnerWire";
import { EXAMPLES, expectSuccess, liveMachines, newStack, startE2eEmulator } from "./e2eKit";
import type { RunningEmulator } from "../../src/emulator";

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await startE2eEmulator();
});
afterEach(() => emu.close());

test("team: up, preview, destroy as team admin → machines, access, secret token, then nothing left", async () => {
  const stack = newStack(emu, path.join(EXAMPLES, "team", "index.ts"), emu.keys.teamAdmin, {
    teamId: "teacme001",
    newUserPassword: secret("s3cret-Passw0rd"),
  });

  const up = expectSuccess(await stack.run("up"));
  expect(up.steps.map((s) => s.op).sort()).toEqual(["create", "create", "create", "create"]);
  const { workstationId, newHireId, streamingToken, streamingExpiresAt } = up.outputs;
  expect(isSecret(streamingToken)).toBe(true);
  expect(streamingExpiresAt).toEqual(expect.any(String));
  const dump = await stack.emulator();
  const byId = new Map(liveMachines(dump).map((m) => [m.id, m]));
  expect(byId.get(workstationId as string)).toMatchObject({ state: "ready" });
  expect(byId.get(newHireId as string)).toMatchObject({ state: "off" });
  // Independent resources are created concurrently: one after the other, they would start ≥ 0.9 s
  // apart (a create waits for its machine, polling from 1 s ± 10 %).
  const [a, b] = [workstationId, newHireId].map((id) =>
    Date.parse(byId.get(id as string)!.dtCreated as string),
  );
  expect(Math.abs(a - b)).toBeLessThan(500);
  expect(dump.accessGrants.map((g) => g.machineId)).toEqual([workstationId]);
  const newHire = stack.stackState.resources.find((r) => r.urn.endsWith("::new-hire"))!;
  expect(isSecret(fromWire(newHire.inputs).password)).toBe(true);
  expect(isSecret(fromWire(newHire.outputs).passwordDigest)).toBe(true);

  const preview = expectSuccess(await stack.run("preview"));
  expect(hasNoChanges(preview)).toBe(true);

  expectSuccess(await stack.run("destroy"));
  const after = await stack.emulator();
  expect(liveMachines(after)).toEqual([]);
  expect(after.accessGrants).toEqual([]);
  expect(stack.stackState.resources).toEqual([]);
});

test("data-sources: up, preview, destroy → a GPU machine on the region's network, then none", async () => {
  const stack = newStack(emu, path.join(EXAMPLES, "data-sources", "index.ts"), emu.keys.individual);

  const up = expectSuccess(await stack.run("up"));
  const { chosenType, machineId } = up.outputs;
  const machine = liveMachines(await stack.emulator()).find((m) => m.id === machineId);
  expect(machine).toMatchObject({ machineType: chosenType, networkId: "nindny2", state: "ready" });

  const preview = expectSuccess(await stack.run("preview"));
  expect(hasNoChanges(preview)).toBe(true);

  expectSuccess(await stack.run("destroy"));
  expect(liveMachines(await stack.emulator())).toEqual([]);
});
