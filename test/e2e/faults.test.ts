/**
 * Billed machines under a failing API: with a seeded 20 % of requests failing (429 with
 * Retry-After, 500, 503, connection resets, responses dropped after the server acted), `up` of a
 * fleet of machines with scripts and access grants succeeds or fails with a clear message, and
 * after at most one more `up` the emulator holds exactly the declared machines: none twice, none
 * forgotten. `destroy` under the same faults leaves nothing behind.
 *
 * CI size: 20 machines × 3 seeds. VMAPI_FAULT_SEEDS="1,2,3,4,5,6" runs more.
 */
import * as path from "path";
import { startTestEmulator } from "../helpers/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { PROGRAMS, TIME_SCALE, liveMachines, newStack, type E2eStack } from "./e2eKit";
import type { RunResult } from "../../tools/engine/programRunner";

const FLEET = path.join(PROGRAMS, "fleet");
const COUNT = 20;
const SEEDS = (process.env.VMAPI_FAULT_SEEDS ?? "11,22,33").split(",").map(Number);

jest.setTimeout(240_000);

/** Runs `mode` until it succeeds, at most `tries` times; returns every result. */
async function until(stack: E2eStack, mode: "up" | "destroy", tries: number): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (let i = 0; i < tries; i++) {
    const result = await stack.run(mode);
    results.push(result);
    if (result.error === undefined) break;
  }
  return results;
}

describe.each(SEEDS)("fault seed %i", (seed) => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ clock: "real", timeScale: TIME_SCALE, faultRate: 0.2, faultSeed: seed });
  });
  afterAll(() => emu.close());

  it("up ×≤2 under 20 % faults → exactly the declared machines, scripts and grants; destroy → nothing", async () => {
    const stack = newStack(emu, FLEET, emu.keys.individual, { count: String(COUNT) });

    const ups = await until(stack, "up", 2);
    for (const failed of ups.filter((r) => r.error !== undefined)) {
      // A failed up says why, in words a person can act on.
      expect(failed.error).toMatch(/\w{3,}/);
    }
    expect(ups[ups.length - 1].error).toBeUndefined();

    const dump = await stack.emulator();
    const declared = stack.stackState.resources.filter((r) => r.type.endsWith(":Machine")).map((r) => r.id);
    const live = liveMachines(dump);
    expect(declared).toHaveLength(COUNT);
    expect(live.map((m) => m.id).sort()).toEqual([...declared].sort());
    expect(new Set(live.map((m) => m.name)).size).toBe(COUNT);
    expect(live.every((m) => m.state === "ready")).toBe(true);
    expect(dump.scripts).toHaveLength(COUNT);
    expect(dump.accessGrants).toHaveLength(COUNT);
    const faults = Object.values(dump.requestCounts).reduce((a, b) => a + b, 0);
    expect(faults).toBeGreaterThan(COUNT * 5); // the fleet really went through the faulty API

    const destroys = await until(stack, "destroy", 2);
    expect(destroys[destroys.length - 1].error).toBeUndefined();
    const after = await stack.emulator();
    expect(liveMachines(after)).toEqual([]);
    expect(after.scripts).toEqual([]);
    expect(after.accessGrants).toEqual([]);
    expect(stack.stackState.resources).toEqual([]);
  });
});
