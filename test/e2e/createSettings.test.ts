/**
 * A Machine declaring its in-place settings, through `pulumi up` on the real engine (program
 * test/e2e/programs/machine): the four the create endpoint takes ride in the create body with no
 * update for them after it (the one update names the machine, as every create's last step), the machine holds them, and the next preview has nothing to do; a later
 * change, `shutdownTimeoutForces` included, is an update in place. The tests run in order on one
 * stack.
 */
import * as path from "path";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { expectExit, steps } from "./support/cli";
import type { EngineStack } from "./support/engineStack";
import { CREATE_SETTINGS } from "../kit/machines";

jest.setTimeout(180_000);

const CREATE = "POST /machines/createSingleMachinePublic";
const UPDATE = "POST /machines/{machineId}/updateMachinePublic";

const ctx = useE2eContext();
let stack: EngineStack;
let machineId: string;

beforeAll(async () => {
  stack = await ctx.stack(path.join(PROGRAMS, "machine"), ctx.emu.keys.individual, {
    name: "settings-box",
    ...Object.fromEntries(Object.entries(CREATE_SETTINGS).map(([k, v]) => [k, String(v)])),
  });
});

/** The requests to `routes` that `run` made, by route. */
async function counting(routes: string[], run: () => Promise<unknown>): Promise<number[]> {
  const before = (await ctx.emulator()).requestCounts;
  await run();
  const after = (await ctx.emulator()).requestCounts;
  return routes.map((route) => (after[route] ?? 0) - (before[route] ?? 0));
}

const machine = async (id: string) => (await ctx.emulator()).machines.find((m) => m.id === id)!;

test("up: the four settings declared → one create request, and one update only, the create's last step that names the machine; the machine holds them", async () => {
  const counts = await counting([CREATE, UPDATE], async () => expectExit(await stack.up()));
  machineId = (await stack.outputs()).machineId as string;
  // The settings ride in the create body; the update gives the machine its name once it settled.
  expect(counts).toEqual([1, 1]);
  expect(await machine(machineId)).toMatchObject({
    ...CREATE_SETTINGS,
    shutdownTimeoutForces: false,
    state: "ready",
  });
});

test("preview --expect-no-changes after that up → passes", async () => {
  expectExit(await stack.preview("--expect-no-changes"));
});

test("up: shutdownTimeoutForces and another save count declared → an update in place of the same machine; then no changes", async () => {
  await stack.setConfig({ shutdownTimeoutForces: "true", autoSnapshotSaveCount: "5" });
  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => [s.op, s.new?.id])).toEqual([["update", machineId]]);
  expect(await machine(machineId)).toMatchObject({
    ...CREATE_SETTINGS,
    autoSnapshotSaveCount: 5,
    shutdownTimeoutForces: true,
  });
  expectExit(await stack.preview("--expect-no-changes"));
});
