/**
 * A machine's life through successive `up`s of one program (test/e2e/programs/machine): in-place
 * changes, replacement, drift found by refresh and put back, a machine destroyed out of band.
 * The tests run in order on one stack.
 */
import * as path from "path";
import { VmApiClient } from "../../src";
import type { RunningEmulator } from "../../src/emulator";
import { PROGRAMS, expectSuccess, liveMachines, newStack, startE2eEmulator, type E2eStack } from "./e2eKit";

let emu: RunningEmulator;
let stack: E2eStack;
let client: VmApiClient;
let machineId: string;

beforeAll(async () => {
  emu = await startE2eEmulator();
  stack = newStack(emu, path.join(PROGRAMS, "machine"), emu.keys.individual, { name: "box-1" });
  client = new VmApiClient({ apiKey: emu.keys.individual, baseUrl: emu.url, maxRetries: 0 });
});
afterAll(() => emu.close());

const machine = async (id: string) => (await stack.emulator()).machines.find((m) => m.id === id)!;

test("up: new stack → machine created and ready", async () => {
  const up = expectSuccess(await stack.run("up"));
  expect(up.steps.map((s) => s.op)).toEqual(["create"]);
  machineId = up.outputs.machineId as string;
  expect(await machine(machineId)).toMatchObject({ name: "box-1", state: "ready" });
});

test("up: name and power state changed → updated in place, same machine", async () => {
  const up = expectSuccess(await stack.run("up", { name: "box-2", state: "off" }));
  expect(up.steps.map((s) => [s.op, s.id])).toEqual([["update", machineId]]);
  expect(up.outputs).toMatchObject({ machineId, name: "box-2", currentState: "off" });
  expect(await machine(machineId)).toMatchObject({ name: "box-2", state: "off", dtDestroyed: null });
});

test("up: region changed → replaced by a new machine, the old one destroyed", async () => {
  const up = expectSuccess(await stack.run("up", { name: "box-2", region: "West Coast (CA1)" }));
  expect(up.steps).toEqual([
    expect.objectContaining({ op: "replace", oldId: machineId, replaces: ["region"] }),
    expect.objectContaining({ op: "delete-replaced", id: machineId }),
  ]);
  const newId = up.outputs.machineId as string;
  expect(newId).not.toBe(machineId);
  expect((await machine(machineId)).dtDestroyed).not.toBeNull();
  expect(await machine(newId)).toMatchObject({ region: "West Coast (CA1)", state: "ready" });
  expect(stack.stackState.resources.map((r) => r.id)).toEqual([newId]);
  machineId = newId;
});

test("refresh: stopped and renamed out of band → drift recorded in the state", async () => {
  await client.machines.update(machineId, { machineName: "renamed-elsewhere" });
  await client.machines.stop(machineId);
  const refresh = expectSuccess(await stack.run("refresh"));
  expect(refresh.steps).toEqual([expect.objectContaining({ op: "refresh", drift: "changed" })]);
  expect(refresh.steps[0].changed).toEqual(expect.arrayContaining(["name", "currentState"]));
  expect(stack.stackState.resources[0].outputs).toMatchObject({ name: "renamed-elsewhere" });
});

test("up: after drift → name and power state put back on the same machine", async () => {
  const config = { name: "box-2", region: "West Coast (CA1)" };
  const up = expectSuccess(await stack.run("up", config));
  expect(up.steps.map((s) => [s.op, s.id])).toEqual([["update", machineId]]);
  expect(await machine(machineId)).toMatchObject({ name: "box-2", state: "ready" });
  expect(up.outputs).toMatchObject({ name: "box-2", currentState: "ready" });
});

test("refresh: destroyed out of band → dropped from the state", async () => {
  await client.machines.destroy(machineId);
  const refresh = expectSuccess(await stack.run("refresh"));
  expect(refresh.steps).toEqual([expect.objectContaining({ op: "refresh", drift: "gone" })]);
  expect(stack.stackState.resources).toEqual([]);
});

test("up: after an out-of-band destroy → recreated with a new id", async () => {
  const up = expectSuccess(await stack.run("up", { name: "box-2", region: "West Coast (CA1)" }));
  expect(up.steps.map((s) => s.op)).toEqual(["create"]);
  expect(up.outputs.machineId).not.toBe(machineId);
  expect(liveMachines(await stack.emulator()).map((m) => [m.id, m.state])).toEqual([
    [up.outputs.machineId, "ready"],
  ]);
});

test("destroy: the stack → no machine left", async () => {
  expectSuccess(await stack.run("destroy"));
  expect(liveMachines(await stack.emulator())).toEqual([]);
  expect(stack.stackState.resources).toEqual([]);
});
