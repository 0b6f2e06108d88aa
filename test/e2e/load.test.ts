/**
 * Load: several stacks of a 20-machine fleet brought up at the same time against one emulator.
 * All converge, every request is answered without a 5xx, and the requests per machine stay
 * within budget. CI size: 4 stacks; VMAPI_LOAD_STACKS=10 is the full size.
 */
import * as path from "path";
import { startTestEmulator } from "../helpers/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { PROGRAMS, TIME_SCALE, liveMachines, newStack } from "./e2eKit";

const STACKS = Number(process.env.VMAPI_LOAD_STACKS ?? 4);
const MACHINES = 20;
/** API requests per machine for the whole up (script, machine, grant, waits, data source). */
const BUDGET_PER_MACHINE = 12;
jest.setTimeout(300_000);

let emu: RunningEmulator;
const statuses: number[] = [];
beforeAll(async () => {
  emu = await startTestEmulator({
    clock: "real",
    timeScale: TIME_SCALE,
    log: (line) => {
      const status = /\s(\d{3})\s/.exec(line);
      if (status) statuses.push(Number(status[1]));
    },
  });
});
afterAll(() => emu.close());

test(`up: ${STACKS} stacks × ${MACHINES} machines at once → all converge, no 5xx, requests within budget`, async () => {
  const stacks = Array.from({ length: STACKS }, (_, i) =>
    newStack(
      emu,
      path.join(PROGRAMS, "fleet"),
      emu.keys.individual,
      { count: String(MACHINES) },
      `load-${i}`,
    ),
  );
  const results = await Promise.all(stacks.map((s) => s.run("up")));
  expect(results.map((r) => r.error)).toEqual(results.map(() => undefined));

  const dump = await stacks[0].emulator();
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
