/**
 * A fleet against a throttling API, on the real engine: 20 Scripts created at once
 * (`up --parallel 64`) against an emulator that lets each key make 2 requests/s (burst 2). All
 * resources of the stack share the plugin's one budget for the account, so the `up` converges
 * in one go with no failed operation although the emulator refused requests, and the output
 * says that the provider is being throttled and how long it waits. Then billed machines under a
 * limit and a seeded 20 % of failing requests at once: one `up` converges with none twice and
 * none forgotten (benchmark 6 runs the same with 200 machines).
 */
import * as path from "path";
import { E2eContext, liveMachines, PROGRAMS } from "./support/kit";
import { expectExit, messages, steps, summary, untilSucceeds } from "./support/cli";

const COUNT = 20;
const RATE = 2;

jest.setTimeout(300_000);

// The three runs go side by side, each with its own emulator and workspace: a throttled run
// mostly waits on its budget, so one core serves them all.
test.concurrent(
  `up --parallel 64: ${COUNT} Scripts against ${RATE} requests/s per key → one up, 0 failed operations, refusals > 0, throttling in the output`,
  async () => {
    const context = await E2eContext.start({ rateLimit: RATE, rateBurst: RATE });
    const { emu } = context;
    try {
      const stack = await context.stack(path.join(PROGRAMS, "scripts"), emu.keys.individual, {
        count: String(COUNT),
      });
      const run = expectExit(await stack.up("--parallel", "64"));
      const done = steps(run);
      expect(done.filter((s) => s.failed)).toEqual([]);
      expect(done.filter((s) => s.op === "create")).toHaveLength(COUNT);
      expect(summary(run).resourceChanges.create).toBe(COUNT + 1); // and the stack

      const dump = await emu.control.state();
      expect(dump.scripts).toHaveLength(COUNT);
      expect(dump.rateLimit.refused).toBeGreaterThan(0); // 429s happened in this run
      expect(dump.faultsInjected.total).toBe(0); // and they were the limiter's, not faults
      const throttled = messages(run).filter((m) => m.includes("is throttling this account"));
      expect(throttled.length).toBeGreaterThan(0);
      expect(throttled[0]).toMatch(
        /^info: .*vmapi: the API at \S+ is throttling this account \(HTTP 429\): every request waits \d+\.\d s/,
      );
      if (process.env.VMAPI_E2E_REPORT) console.log(JSON.stringify({ rateLimit: dump.rateLimit, throttled }));
      for (const key of Object.values(emu.keys)) expect(run.stdout + run.stderr).not.toContain(key);
    } finally {
      await context.close();
    }
  },
);

const MACHINES = 12;
const FAULT_SEEDS = (process.env.VMAPI_FAULT_SEEDS ?? "22,44").split(",").map(Number);

describe.each(FAULT_SEEDS)("fault seed %i", (seed) => {
  it.concurrent(
    `up --parallel 64: ${MACHINES} machines against ${RATE} requests/s per key and 20 % faults → one up converges, none twice, none orphaned; destroy → nothing`,
    async () => {
      const context = await E2eContext.start({
        rateLimit: RATE,
        rateBurst: RATE,
        faultRate: 0.2,
        faultSeed: seed,
      });
      const { emu } = context;
      try {
        const stack = await context.stack(path.join(PROGRAMS, "machines"), emu.keys.individual, {
          count: String(MACHINES),
        });
        const run = expectExit(await stack.up("--parallel", "64"));
        expect(steps(run).filter((s) => s.failed)).toEqual([]);

        const dump = await emu.control.state();
        expect(dump.rateLimit.refused).toBeGreaterThan(0); // the limit bit: 429s refused by the limiter
        expect(dump.faultsInjected.random).toBeGreaterThan(0); // and the seeded faults fired
        const requests = Object.values(dump.requestCounts).reduce((a, b) => a + b, 0);
        expect(requests).toBeGreaterThan(MACHINES); // the fleet really went through the faulty API
        const held = (await stack.resources()).filter((r) => r.type.endsWith(":Machine")).map((r) => r.id!);
        const live = liveMachines(dump);
        expect(held).toHaveLength(MACHINES);
        // Exactly the machines the stack holds are live (no orphan), one per name (no duplicate).
        expect(live.map((m) => m.id).sort()).toEqual([...held].sort());
        expect(new Set(live.map((m) => m.name)).size).toBe(MACHINES);

        // The limit lifted, faults still on: a destroy cut short by them is run again, as a user would.
        await emu.control.setRateLimit({ rate: null });
        await untilSucceeds(() => stack.destroy("--parallel", "64"), 2);
        expect(liveMachines(await emu.control.state())).toEqual([]);
        expect(await stack.resources()).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
