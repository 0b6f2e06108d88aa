/**
 * Engine semantics of the program runner with a program of independent scripts
 * (test/e2e/programs/scripts): concurrency, secrets, replacement with a fresh auto-name,
 * deletion of what the program no longer declares.
 */
import * as path from "path";
import { UNKNOWN, isSecret } from "../../tools/engine/providerHarness";
import { hasNoChanges } from "../../tools/engine/programRunner";
import { fromWire } from "../../tools/engine/programRunnerWire";
import type { RunningEmulator } from "../../src/emulator";
import { PROGRAMS, expectSuccess, newStack, startE2eEmulator, type E2eStack } from "./e2eKit";

let emu: RunningEmulator;
let stack: E2eStack;
beforeAll(async () => {
  emu = await startE2eEmulator();
  stack = newStack(emu, path.join(PROGRAMS, "scripts"), emu.keys.individual);
});
afterAll(() => emu.close());

const liveScripts = async () => (await stack.emulator()).scripts.map((s) => s.name as string).sort();
const stateNames = () => stack.stackState.resources.map((r) => r.outputs.name as string).sort();

test("preview: new stack → planned creates, outputs unknown, nothing created", async () => {
  const preview = expectSuccess(await stack.run("preview"));
  expect(preview.steps.map((s) => [s.op, s.name, s.id])).toEqual([
    ["create", "script-0", ""],
    ["create", "script-1", ""],
  ]);
  expect(preview.outputs.ids).toEqual([UNKNOWN, UNKNOWN]);
  expect(await liveScripts()).toEqual([]);
  expect(stack.stackState.resources).toEqual([]);
});

test("up: two scripts, one secret text → both created, secrets stay secret", async () => {
  const up = expectSuccess(await stack.run("up"));
  expect(up.steps.map((s) => s.op)).toEqual(["create", "create"]);
  expect(await liveScripts()).toEqual(stateNames());
  expect(isSecret(up.outputs.secretText)).toBe(true);
  const [first, second] = stack.stackState.resources.map((r) => fromWire(r.outputs));
  expect(isSecret(first.scriptText)).toBe(true);
  expect(isSecret(second.scriptText)).toBe(false);
  expect(hasNoChanges(expectSuccess(await stack.run("preview")))).toBe(true);
});

test("up: text changed → each replaced under a fresh auto-name, old ones deleted after", async () => {
  const before = await liveScripts();
  const up = expectSuccess(await stack.run("up", { text: "#!/bin/bash\necho changed\n" }));
  expect(up.steps.map((s) => s.op)).toEqual(["replace", "replace", "delete-replaced", "delete-replaced"]);
  expect(up.steps[0].replaces).not.toEqual([]);
  const after = await liveScripts();
  expect(after).toEqual(stateNames());
  expect(after.filter((n) => before.includes(n))).toEqual([]);
});

test("up: a script removed from the program → deleted at the end, the other unchanged", async () => {
  const config = { text: "#!/bin/bash\necho changed\n", count: "1" };
  const up = expectSuccess(await stack.run("up", config));
  expect(up.steps.map((s) => [s.op, s.name])).toEqual([
    ["same", "script-0"],
    ["delete", "script-1"],
  ]);
  expect(await liveScripts()).toEqual(stateNames());
  expect(stack.stackState.resources).toHaveLength(1);
});
