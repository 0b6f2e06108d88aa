/**
 * Pulumi's resource options on a Machine, on the real engine. The engine hands a Node dynamic
 * provider neither the operation's timeout nor the changed keys, so `customTimeouts` and
 * `replaceOnChanges` work only because the class carries them as internal inputs; `ignoreChanges`,
 * `protect`, `retainOnDelete` and `deleteBeforeReplace` are the engine's own and are kept working.
 */
import * as path from "path";
import { useE2eContext, PROGRAMS, TIME_SCALE, liveMachines } from "./support/kit";
import { expectExit, steps, type CliRun } from "./support/cli";
import type { EngineStack } from "./support/engineStack";

jest.setTimeout(400_000);

const OPTIONS = path.join(PROGRAMS, "options");
const CREATE = "POST /machines/createSingleMachinePublic";
const RESTART = "POST /machines/{machineId}/restart";

/** What the engine and the provider printed. */
const printed = (run: CliRun) => run.stdout + run.stderr;

describe("on the real clock", () => {
  const ctx = useE2eContext();

  test("replaceOnChanges, ignoreChanges, deleteBeforeReplace, protect, retainOnDelete → each does what Pulumi says", async () => {
    const stack = await ctx.stack(OPTIONS, ctx.emu.keys.individual, {
      name: "opt-a",
      shutdownTimeoutInHours: "1",
      replaceOnChanges: JSON.stringify(["name"]),
      ignoreChanges: JSON.stringify(["shutdownTimeoutInHours"]),
    });
    expectExit(await stack.up());
    const first = (await stack.outputs()).machineId as string;

    // A rename would be an update in place; replaceOnChanges makes it a replacement, and
    // deleteBeforeReplace deletes the old machine first.
    await stack.setConfig({ name: "opt-b", deleteBeforeReplace: "true" });
    const plan = expectExit(await stack.preview());
    const planned = steps(plan).filter((s) => s.name === "box");
    expect(planned.map((s) => s.op)).toContain("replace");
    expect(planned.find((s) => s.op === "replace")?.keys).toEqual(["name"]);
    const up = expectExit(await stack.up());
    expect(steps(up).map((s) => s.op)).toEqual(["delete-replaced", "replace", "create-replacement"]);
    const second = (await stack.outputs()).machineId as string;
    expect(second).not.toBe(first);
    const machines = (await ctx.emulator()).machines;
    expect(machines.find((m) => m.id === first)?.dtDestroyed).not.toBeNull();
    expect(liveMachines(await ctx.emulator())).toEqual([
      expect.objectContaining({ id: second, name: "opt-b", shutdownTimeoutInHours: 1 }),
    ]);

    // An ignored input's change is no change at all.
    await stack.setConfig({ shutdownTimeoutInHours: "5" });
    expectExit(await stack.preview("--expect-no-changes"));

    await stack.setConfig({ protect: "true" });
    expectExit(await stack.up());
    const refused = await stack.destroy();
    expect(refused.code).not.toBe(0);
    expect(printed(refused)).toMatch(/protect/);
    expect(liveMachines(await ctx.emulator()).map((m) => m.id)).toEqual([second]);

    await stack.setConfig({ protect: "false", retainOnDelete: "true" });
    expectExit(await stack.up());
    expectExit(await stack.destroy());
    expect(await stack.resources()).toEqual([]);
    expect(liveMachines(await ctx.emulator()).map((m) => m.id)).toEqual([second]);
  });

  test("replaceOnChanges ['triggers'] on a MachineRestart, a changed trigger → replaced, not restarted in place", async () => {
    const stack = await ctx.stack(OPTIONS, ctx.emu.keys.individual, {
      restartTrigger: "a",
      restartReplaceOnChanges: JSON.stringify(["triggers"]),
    });
    expectExit(await stack.up());
    const restarts = () => ctx.received(RESTART);
    const before = await restarts();

    await stack.setConfig({ restartTrigger: "b" });
    const planned = steps(expectExit(await stack.preview())).filter((s) => s.name === "box-restart");
    expect(planned.find((s) => s.op === "replace")?.keys).toEqual(["triggers"]);
    const up = expectExit(await stack.up());
    expect(
      steps(up)
        .filter((s) => s.name === "box-restart")
        .map((s) => s.op),
    ).toContain("replace");
    expect(await restarts()).toBe(before);
    expectExit(await stack.destroy());
  });

  test("replaceOnChanges naming no input → preview names it and the inputs, nothing created", async () => {
    // (A malformed customTimeouts never reaches the provider: the engine refuses it at registration.)
    const stack = await ctx.stack(OPTIONS, ctx.emu.keys.individual, {
      replaceOnChanges: JSON.stringify(["nmae"]),
    });
    const creates = () => ctx.received(CREATE);
    const before = await creates();
    const plan = await stack.preview();
    expect(plan.code).not.toBe(0);
    expect(printed(plan)).toMatch(
      /replaceOnChanges names "nmae", not an input of Machine; its inputs: region, machineType, size, .*\bname\b/,
    );
    expect(printed(plan)).not.toMatch(/__replaceOnChanges/);
    expect(await creates()).toBe(before);
  });
});

describe("on a manual clock (machines settle only when the test advances it)", () => {
  const ctx = useE2eContext({ clock: "manual" });

  const HOUR = 3_600_000;
  /** An up that must end by itself: on a code that ignores customTimeouts it would wait 1200 s. */
  const boundedUp = (stack: EngineStack) =>
    stack.cli(["up", "--yes", "--skip-preview"], { events: true, timeoutMs: 120_000 });

  test("customTimeouts create, update, delete → each bounds its wait, says which ran out, and the machine stays in the stack", async () => {
    const stack = await ctx.stack(OPTIONS, ctx.emu.keys.individual, {
      customTimeouts: JSON.stringify({ create: "2s" }),
    });

    // create: the machine provisions until the clock moves, which it does not.
    const create = await boundedUp(stack);
    expect(create.code).not.toBe(0);
    expect(printed(create)).toMatch(
      /customTimeouts\.create \(2s\) ran out: machine ps\w+ did not become ready/,
    );
    const [made] = liveMachines(await ctx.emulator());
    expect(made).toMatchObject({ state: "provisioning" });
    expect((await stack.resources()).map((r) => r.id)).toEqual([made.id]);
    await ctx.emu.control.advance(HOUR);
    expectExit(await boundedUp(stack));
    expect(liveMachines(await ctx.emulator()).map((m) => [m.id, m.state])).toEqual([[made.id, "ready"]]);

    // update: a stop that does not finish.
    await stack.setConfig({ state: "off", customTimeouts: JSON.stringify({ update: "2s", delete: "2s" }) });
    const update = await boundedUp(stack);
    expect(update.code).not.toBe(0);
    expect(printed(update)).toMatch(
      /customTimeouts\.update \(2s\) ran out: machine ps\w+ did not become off/,
    );
    expect((await stack.resources()).map((r) => r.id)).toEqual([made.id]);
    await ctx.emu.control.advance(HOUR);
    expectExit(await boundedUp(stack));

    // delete: the machine's read hangs; the delete gives up at its bound and keeps the machine.
    // Fault latency is emulator time, scaled like the lifecycles: 5 s of real time here.
    await ctx.emu.control.addFaults([
      { method: "GET", route: "/machines/getMachinePublic", latencyMs: Math.round(5_000 / TIME_SCALE) },
    ]);
    const destroy = await stack.destroy();
    expect(destroy.code).not.toBe(0);
    expect(printed(destroy)).toMatch(/customTimeouts\.delete \(2s\) ran out/);
    expect((await stack.resources()).map((r) => r.id)).toEqual([made.id]);
    await ctx.emu.control.clearFaults();
    expectExit(await stack.destroy());
    expect(await stack.resources()).toEqual([]);
  });
});
