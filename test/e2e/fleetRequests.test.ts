/**
 * Requests of a fleet on the real engine (test/e2e/programs/machines, 20 machines): the `up`'s
 * creates share listings of namesakes and its waits end on the account's one watcher's listings
 * (no show per machine), and a `pulumi refresh` reads all of them from one listing, finding no
 * change.
 * Requests are counted with the emulator's `requestCounts`.
 */
import * as path from "path";
import { useE2eContext, PROGRAMS, liveMachines } from "./support/kit";
import { changedOutputs, expectExit, steps, summary } from "./support/cli";
import type { EngineStack } from "./support/engineStack";

jest.setTimeout(300_000);

const MACHINES = 20;
const CREATE = "POST /machines/createSingleMachinePublic";
const LIST = "GET /machines/getMachines";
const SHOW = "GET /machines/getMachinePublic";
const UPDATE = "POST /machines/{machineId}/updateMachinePublic";
/**
 * A provisioning takes 6 s here (50 times the other e2e tests' 120 ms): the waits share one
 * listing per poll interval (1 s here), so their listings count the time between the first
 * create and the last machine ready in the API's time. Against a real API the engine's own
 * seconds between creates are small beside a 60 s provisioning; at a smaller scale they would
 * weigh as minutes of API time on these loaded cores.
 */
const TIME_SCALE = 0.1;

const ctx = useE2eContext({ timeScale: TIME_SCALE });
let stack: EngineStack;

beforeAll(async () => {
  stack = await ctx.stack(path.join(PROGRAMS, "machines"), ctx.emu.keys.individual, {
    count: String(MACHINES),
  });
});

/** API requests (control endpoints left out) per route since `before`, and their total. */
async function apiRequestsSince(before: Record<string, number>) {
  const after = (await ctx.emulator()).requestCounts;
  const routes = Object.keys(after).filter((route) => !route.includes("/_emulator"));
  const byRoute = Object.fromEntries(routes.map((r) => [r, after[r] - (before[r] ?? 0)]));
  const total = Object.values(byRoute).reduce((sum, n) => sum + n, 0);
  return { byRoute, total };
}

test(`up: ${MACHINES} machines → their creates and waits share listings: fewer listings than machines, a show only for a wait alone, ≤ 1 request per machine beyond its POST and its naming`, async () => {
  const before = (await ctx.emulator()).requestCounts;
  // All creates at once, as a fleet is run (the default, 4 per core, makes waves of 8 here).
  expectExit(await stack.up("--parallel", "64"));
  const { byRoute, total } = await apiRequestsSince(before);

  const live = liveMachines(await ctx.emulator());
  expect(live).toHaveLength(MACHINES);
  expect(live.every((m) => m.state === "ready")).toBe(true);
  expect(byRoute[CREATE]).toBe(MACHINES);
  // A wait ends on the listing that sees its machine ready: only a wait alone in its round is
  // shown. Before: one show each when ready (and before the watcher, about 6 per create-and-wait).
  expect(byRoute[SHOW] ?? 0).toBeLessThan(MACHINES / 2);
  // The creates' namesakes and the waits share listings: before, one list of namesakes per create.
  expect(byRoute[LIST]).toBeLessThan(MACHINES);
  // Each create's last step names its machine (it had its creating name until then): one update.
  expect(byRoute[UPDATE]).toBe(MACHINES);
  // Everything beyond the POSTs and those updates: shared listings, shows of waits alone, check's lookups.
  const beyondCreates = total - 2 * MACHINES;
  expect(beyondCreates / MACHINES).toBeLessThanOrEqual(1);
});

test(`refresh: ${MACHINES} unchanged machines (reads in the engine's default waves) → a handful of requests, no show, no change`, async () => {
  const before = (await ctx.emulator()).requestCounts;
  const refresh = expectExit(await stack.refresh("--expect-no-changes"));
  const { byRoute, total } = await apiRequestsSince(before);

  expect(summary(refresh).resourceChanges).not.toHaveProperty("update");
  const refreshed = steps(refresh).filter((s) => s.type === "pulumi-nodejs:dynamic/vmapi:Machine");
  expect(refreshed).toHaveLength(MACHINES);
  expect(refreshed.flatMap(changedOutputs)).toEqual([]);
  expect(byRoute[SHOW] ?? 0).toBe(0);
  expect(total).toBeLessThanOrEqual(5);
});
