/**
 * The dynamic route's guarantees, on the plugin route (Pulumi YAML programs, test/e2e/programs/yaml):
 * - the plugin process killed (SIGKILL) while a create is in flight: the next `up` takes over what
 *   that create made, under the new auto-name the engine draws, instead of making a second one;
 * - a fleet under seeded faults and a rate limit at once: at most one more `up` converges to
 *   exactly the declared machines, none twice; `destroy` leaves nothing.
 */
import * as path from "path";
import { useE2eContext, PROGRAMS, liveMachines, until, upWithPluginKilled } from "./support/kit";
import { expectExit, messages, untilSucceeds } from "./support/cli";

jest.setTimeout(480_000);

const YAML = path.join(PROGRAMS, "yaml");

describe("the plugin process killed while a create is in flight", () => {
  const CREATING = / \(creating [0-9a-f]{10}\)$/;
  const ctx = useE2eContext();

  test.each([
    ["machine", "killedMachine", "POST /machines/createSingleMachinePublic", 1],
    ["script", "killedScript", "POST /scripts/createScript", 2],
  ] as const)(
    "%s: SIGKILL while its create request is held → up fails; the next up takes over what it made (renamed to the name drawn now); destroy → none",
    async (kind, program, route, nth) => {
      const stack = await ctx.stack(path.join(YAML, program), ctx.emu.keys.individual);
      const records = async () => {
        const dump = await ctx.emulator();
        return kind === "machine"
          ? liveMachines(dump).filter((m) => m.name.startsWith("box-"))
          : dump.scripts.filter((s) => s.name.startsWith("setup-") && !CREATING.test(s.name));
      };
      const [method, template] = route.split(" ");
      // The create (a script's own comes after its marker's) and every request after it are held
      // until the test releases them: the kill lands while that create is in flight, however slow
      // the machine.
      await ctx.emu.control.addFaults([{ method, route: template, hold: "all", skip: nth - 1 }]);
      const counts = () => ctx.received(route);
      const before = await counts();
      // The plugin process: `node …/native/main.js`.
      await upWithPluginKilled(ctx, stack, "native/main.js");
      // The case this run ran: the create held, the nth to arrive, nothing of it made yet.
      const [held] = await ctx.emu.control.held();
      expect(`${held.method} ${held.route}`).toBe(route);
      expect((await counts()) - before).toBe(nth);
      expect(await records()).toEqual([]);
      await ctx.emu.control.clearFaults();
      await ctx.emu.control.release();

      // The held create acts now, as the API would after the plugin died.
      await until(async () => (await records()).length === 1, "the held create to act");
      const [left] = await records();

      const next = expectExit(await stack.up());
      const [recorded] = await stack.resources();
      const made = await records();
      // One, the stack's. A machine is the one the dead create made, renamed to the new auto-name;
      // a script (immutable) under another name was destroyed and the declared one made.
      expect(made.map((r) => r.id)).toEqual([recorded.id]);
      expect(made[0].name).toBe(recorded.outputs?.name);
      expect(made[0].id === left.id).toBe(kind === "machine");
      expect(messages(next).some((m) => /did not finish/.test(m))).toBe(true);
      expect((await ctx.emulator()).scripts.filter((s) => CREATING.test(s.name))).toEqual([]);

      expectExit(await stack.destroy());
      expect(await records()).toEqual([]);
    },
  );
});

describe("a fleet under 20 % seeded faults and 5 requests/s at once", () => {
  const ctx = useE2eContext({ faultRate: 0.2, faultSeed: 7, rateLimit: 5, rateBurst: 5 });

  test("up ×≤2 → exactly the six declared machines, none twice, faults and 429s met; destroy → nothing", async () => {
    const stack = await ctx.stack(path.join(YAML, "fleet"), ctx.emu.keys.individual);
    const ups = await untilSucceeds(() => stack.up(), 2);
    expect(ups[ups.length - 1].code).toBe(0);

    const dump = await ctx.emulator();
    const declared = (await stack.resources()).map((r) => r.id!);
    const live = liveMachines(dump);
    expect(declared).toHaveLength(6);
    expect(live.map((m) => m.id).sort()).toEqual([...declared].sort());
    expect(new Set(live.map((m) => m.name)).size).toBe(6);
    expect(live.every((m) => m.state === "ready")).toBe(true);
    expect(dump.faultsInjected.random).toBeGreaterThan(0);
    expect(dump.rateLimit.refused).toBeGreaterThan(0);

    const destroys = await untilSucceeds(() => stack.destroy(), 2);
    expect(destroys[destroys.length - 1].code).toBe(0);
    expect(liveMachines(await ctx.emulator())).toEqual([]);
  });
});
