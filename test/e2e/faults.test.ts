/**
 * Billed machines under a failing API, on the real engine: with a seeded 20 % of requests failing
 * (429 with Retry-After, 500, 503, connection resets, responses dropped after the server acted),
 * `up` of a fleet of machines with scripts and access grants succeeds or fails with a clear
 * message, and after at most one more `up` the emulator holds exactly the declared machines: none
 * twice, none forgotten. `destroy` under the same faults leaves nothing behind.
 *
 * CI size: 20 machines × 3 seeds. VMAPI_FAULT_SEEDS="1,2,3,4,5,6" runs more.
 */
import * as path from "path";
import { E2eContext, liveMachines, PROGRAMS } from "./support/kit";
import { messages, untilSucceeds } from "./support/cli";

const COUNT = 20;
const SEEDS = (process.env.VMAPI_FAULT_SEEDS ?? "11,22,33").split(",").map(Number);

jest.setTimeout(480_000);

// The seeds run side by side, each with its own emulator and workspace: a run under faults mostly
// waits (retries, the account's throttled queue), so one core serves them all.
describe("fault seeds, side by side", () => {
  it.concurrent.each(SEEDS)(
    "seed %i: up ×≤2 under 20 %% faults → exactly the declared machines, scripts and grants; destroy → nothing",
    async (seed) => {
      const context = await E2eContext.start({ faultRate: 0.2, faultSeed: seed });
      const { emu } = context;
      try {
        const stack = await context.stack(path.join(PROGRAMS, "fleet"), emu.keys.individual, {
          count: String(COUNT),
        });
        const ups = await untilSucceeds(() => stack.up(), 2);
        for (const failed of ups.filter((r) => r.code !== 0)) {
          // A failed up says why, in words a person can act on.
          expect(messages(failed).some((m) => /error: .*\w{3,}/.test(m))).toBe(true);
        }
        expect(ups[ups.length - 1].code).toBe(0);

        const dump = await emu.control.state();
        const declared = (await stack.resources())
          .filter((r) => r.type.endsWith(":Machine"))
          .map((r) => r.id!);
        const live = liveMachines(dump);
        expect(declared).toHaveLength(COUNT);
        expect(live.map((m) => m.id).sort()).toEqual([...declared].sort());
        expect(new Set(live.map((m) => m.name)).size).toBe(COUNT);
        expect(live.every((m) => m.state === "ready")).toBe(true);
        expect(dump.scripts).toHaveLength(COUNT);
        expect(dump.accessGrants).toHaveLength(COUNT);
        const requests = Object.values(dump.requestCounts).reduce((a, b) => a + b, 0);
        expect(requests).toBeGreaterThan(COUNT * 5); // the fleet really went through the faulty API
        // ... and met its faults: the seeded ones fired, of more than one kind.
        expect(dump.faultsInjected.random).toBeGreaterThan(0);
        expect(Object.keys(dump.faultsInjected.byKind).length).toBeGreaterThan(1);

        const destroys = await untilSucceeds(() => stack.destroy(), 2);
        expect(destroys[destroys.length - 1].code).toBe(0);
        const after = await emu.control.state();
        expect(liveMachines(after)).toEqual([]);
        expect(after.scripts).toEqual([]);
        expect(after.accessGrants).toEqual([]);
        expect(await stack.resources()).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
