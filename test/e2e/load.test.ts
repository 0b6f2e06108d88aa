/**
 * Load on the real engine: several stacks of a 20-machine fleet brought up at the same time
 * against one emulator. All converge, every request is answered without a 5xx, and the requests
 * per machine stay within budget. CI size: 4 stacks; VMAPI_LOAD_STACKS=10 is the full size.
 */
import * as path from "path";
import { liveMachines, PROGRAMS, useE2eContext } from "./support/kit";
import type { EngineStack } from "./support/engineStack";

const STACKS = Number(process.env.VMAPI_LOAD_STACKS ?? 4);
const MACHINES = 20;
/** API requests per machine for the whole up (script, machine, grant, waits, data source). */
const BUDGET_PER_MACHINE = 12;
jest.setTimeout(480_000);

const statuses: number[] = [];
const ctx = useE2eContext({
  log: (line) => {
    const status = /\s(\d{3})\s/.exec(line);
    if (status) statuses.push(Number(status[1]));
  },
});

test(`up: ${STACKS} stacks × ${MACHINES} machines at once → all converge, no 5xx, requests within budget`, async () => {
  const stacks: EngineStack[] = [];
  for (let i = 0; i < STACKS; i++) {
    stacks.push(
      await ctx.stack(path.join(PROGRAMS, "fleet"), ctx.emu.keys.individual, { count: String(MACHINES) }),
    );
  }
  const runs = await Promise.all(stacks.map((s) => s.up()));
  expect(runs.map((r) => r.code)).toEqual(runs.map(() => 0));

  const dump = await ctx.emu.control.state();
  const live = liveMachines(dump);
  expect(live).toHaveLength(STACKS * MACHINES);
  expect(live.every((m) => m.state === "ready")).toBe(true);
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  const apiRequests = Object.entries(dump.requestCounts)
    .filter(([route]) => !route.includes("/_emulator"))
    .reduce((sum, [, n]) => sum + n, 0);
  expect(apiRequests / (STACKS * MACHINES)).toBeLessThanOrEqual(BUDGET_PER_MACHINE);
});
