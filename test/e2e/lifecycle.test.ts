/**
 * A machine's life through successive `up`s of one program (test/e2e/programs/machine) on the real
 * engine: in-place changes, replacement, drift found by refresh and put back, a machine destroyed
 * out of band. The tests run in order on one stack.
 */
import * as path from "path";
import { VmApiClient } from "../../src";
import { useE2eContext, PROGRAMS, liveMachines } from "./support/kit";
import { changedOutputs, expectExit, steps, summary } from "./support/cli";
import type { EngineStack } from "./support/engineStack";

jest.setTimeout(120_000);

const ctx = useE2eContext();
let stack: EngineStack;
let client: VmApiClient;
let machineId: string;

beforeAll(async () => {
  stack = await ctx.stack(path.join(PROGRAMS, "machine"), ctx.emu.keys.individual, { name: "box-1" });
  client = ctx.client({ maxRetries: 0 });
});

const machine = async (id: string) => (await ctx.emulator()).machines.find((m) => m.id === id)!;

test("up: new stack → machine created and ready", async () => {
  expectExit(await stack.up());
  machineId = (await stack.outputs()).machineId as string;
  expect(await machine(machineId)).toMatchObject({ name: "box-1", state: "ready" });
});

test("up: name and power state changed → preview shows an update in place, up applies it to the same machine", async () => {
  await stack.setConfig({ name: "box-2", state: "off" });
  const preview = expectExit(await stack.preview("--diff"));
  expect(steps(preview).map((s) => [s.op, s.name])).toEqual([["update", "box"]]);
  expect(preview.stdout).toMatch(/~ name\s*: "box-1" => "box-2"/);

  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => [s.op, s.new?.id])).toEqual([["update", machineId]]);
  expect(await stack.outputs()).toMatchObject({ machineId, name: "box-2", currentState: "off" });
  expect(await machine(machineId)).toMatchObject({ name: "box-2", state: "off", dtDestroyed: null });
});

test("up: region changed → replaced by a new machine, the old one destroyed", async () => {
  await stack.removeConfig("state");
  await stack.setConfig({ region: "West Coast (CA1)" });
  const up = expectExit(await stack.up());
  const ops = steps(up).map((s) => s.op);
  expect(ops).toEqual(["create-replacement", "replace", "delete-replaced"]);
  const replace = steps(up).find((s) => s.op === "replace")!;
  expect(replace.keys).toEqual(["region"]);
  const newId = (await stack.outputs()).machineId as string;
  expect(newId).not.toBe(machineId);
  expect((await machine(machineId)).dtDestroyed).not.toBeNull();
  expect(await machine(newId)).toMatchObject({ region: "West Coast (CA1)", state: "ready" });
  expect((await stack.resources()).map((r) => r.id)).toEqual([newId]);
  machineId = newId;
});

test("refresh: stopped and renamed out of band → drift shown and recorded in the state", async () => {
  await client.machines.update(machineId, { machineName: "renamed-elsewhere" });
  await client.machines.stop(machineId);
  const refresh = expectExit(await stack.refresh());
  expect(summary(refresh).resourceChanges).toEqual({ update: 1, same: 1 }); // the stack itself is the "same"
  const [step] = steps(refresh);
  expect(changedOutputs(step)).toEqual(expect.arrayContaining(["name", "currentState"]));
  expect(refresh.stdout).toMatch(/~\s+pulumi-nodejs:dynamic\/vmapi:Machine box updated/);
  const [resource] = await stack.resources();
  expect(resource.outputs).toMatchObject({ name: "renamed-elsewhere" });
});

test("up: after drift → name and power state put back on the same machine", async () => {
  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => [s.op, s.new?.id])).toEqual([["update", machineId]]);
  expect(await machine(machineId)).toMatchObject({ name: "box-2", state: "ready" });
  expect(await stack.outputs()).toMatchObject({ name: "box-2", currentState: "ready" });
});

test("refresh: destroyed out of band → dropped from the state", async () => {
  await client.machines.destroy(machineId);
  const refresh = expectExit(await stack.refresh());
  expect(summary(refresh).resourceChanges).toEqual({ delete: 1, same: 1 });
  expect(await stack.resources()).toEqual([]);
});

test("up: after an out-of-band destroy → recreated with a new id", async () => {
  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => s.op)).toEqual(["create"]);
  const { machineId: recreated } = await stack.outputs();
  expect(recreated).not.toBe(machineId);
  expect(liveMachines(await ctx.emulator()).map((m) => [m.id, m.state])).toEqual([[recreated, "ready"]]);
});

test("destroy: the stack → no machine left", async () => {
  expectExit(await stack.destroy());
  expect(liveMachines(await ctx.emulator())).toEqual([]);
  expect(await stack.resources()).toEqual([]);
});
