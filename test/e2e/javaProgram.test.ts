/**
 * The Java quickstart (examples/java: an ordinary Maven project on the Java SDK generated in
 * sdk/java) run as a user runs it: `pulumi up` and the rest by the real CLI through
 * `npm run pulumi`, with Pulumi's own Java language host (it runs the program with
 * `mvn compile exec:java`) and this repository's plugin, against an emulator.
 *
 * Every engine run starts Maven's JVM once or twice, seconds each (the host asks the program's
 * plugins, then, for up and preview, runs it): so one stack walks the whole life of the
 * quickstart, each run checking what it is there for. The emulator runs at a tenth of the API's
 * pace (provisioning 6 s, a restart 4.5 s), so a first `up` bounded by a 2 s
 * `customTimeouts.create` fails while the machine provisions, and the next one carries on with
 * that machine.
 */
import * as path from "path";
import { spawnSync } from "child_process";
import { useE2eContext, EXAMPLES, liveMachines } from "./support/kit";
import { REPO, changedOutputs, expectExit, messages, steps, type CliRun } from "./support/cli";
import type { EngineStack } from "./support/engineStack";
import { expectQuickstartTemplateAndScript } from "./support/quickstartSuite";

jest.setTimeout(300_000);

const PROGRAM = path.join(EXAMPLES, "java");
const PROJECT = "vmapi-java-quickstart";
const RESTART = "POST /machines/{machineId}/restart";
/** The host and the Maven repository are made once per machine: minutes the first time. */
const PREPARE_TIMEOUT_MS = 20 * 60_000;

/** Requests that change something (every method but GET), by route. */
function writes(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([route]) => !route.startsWith("GET ")));
}

/** The finished (or planned) steps of a run as [name, op] pairs. */
const ops = (run: CliRun) => steps(run).map((s) => [s.name, s.op]);

beforeAll(() => {
  for (const script of ["tools/java/build.sh", "tools/java/sdk.sh"]) {
    const run = spawnSync("bash", [path.join(REPO, script)], { stdio: ["ignore", "ignore", "inherit"] });
    if (run.status !== 0) throw new Error(`bash ${script} exited ${run.status}`);
  }
}, PREPARE_TIMEOUT_MS);

describe("the Java quickstart, on an emulator whose provisioning takes 6 s", () => {
  const ctx = useE2eContext({ timeScale: 0.1 });
  let stack: EngineStack;
  let machineId: string;
  /** The stack's outputs after the latest `up` that succeeded. */
  let outputs: Record<string, unknown>;
  beforeAll(async () => {
    stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, { [`${PROJECT}:createTimeout`]: "2s" });
  });

  const client = () => ctx.client({ env: {} });

  test("up: customTimeouts.create 2s, shorter than the provisioning → fails naming the engine's timeout as the plugin got it; the machine stays in the stack", async () => {
    const up = await stack.up();
    expect(up.code).not.toBe(0);
    // The program says "2s"; the plugin names the timeout the engine sent it, in milliseconds.
    expect(messages(up).join("\n")).toMatch(
      /customTimeouts\.create \(2000ms\) ran out: machine ps\w+ did not become ready/,
    );
    expect(steps(up).map((s) => [s.type, s.failed])).toEqual([["vmapi:index:Machine", true]]);
    const [machine] = liveMachines(await ctx.emulator());
    expect(machine).toMatchObject({ state: "provisioning" });
    expect((await stack.resources()).map((r) => r.id)).toEqual([machine.id]);
    machineId = machine.id;
  });

  test("up: without the timeout → the same machine, ready, on the template getTemplates found; its script attached by machineId; the restart declared, nothing restarted", async () => {
    await stack.removeConfig(`${PROJECT}:createTimeout`);
    const up = expectExit(await stack.up());
    expect(ops(up)).toEqual(
      expect.arrayContaining([
        ["setup", "create"],
        ["trainerRestart", "create"],
      ]),
    );
    outputs = await stack.outputs();
    expect(outputs).toMatchObject({ machineId, machineState: "ready" });
    const dump = await ctx.emulator();
    expect(liveMachines(dump)).toEqual([
      expect.objectContaining({
        id: machineId,
        name: outputs.machineName,
        state: "ready",
        os: "Ubuntu 22.04 Server",
        scriptId: outputs.scriptId,
      }),
    ]);
    const held = (await stack.resources()).find((r) => r.type === "vmapi:index:Machine");
    expectQuickstartTemplateAndScript(dump, outputs, held?.inputs);
    expect(dump.requestCounts[RESTART] ?? 0).toBe(0);
  });

  test("preview: nothing changed → no changes, nothing written to the API", async () => {
    const before = writes((await ctx.emulator()).requestCounts);
    const preview = expectExit(await stack.preview("--expect-no-changes"));
    expect(ops(preview).filter(([, op]) => op !== "same")).toEqual([]);
    expect(writes((await ctx.emulator()).requestCounts)).toEqual(before);
  });

  test("up: an edited setupScript → a new script for the same machine, and the trigger restarts that machine once, in place; it is ready and ran the new script", async () => {
    await stack.setConfig({ [`${PROJECT}:setupScript`]: "#!/bin/bash\necho second\n" });
    const restartsBefore = await ctx.received(RESTART);
    const up = expectExit(await stack.up());
    expect(ops(up)).toEqual(
      expect.arrayContaining([
        ["setup", "replace"],
        ["trainerRestart", "update"],
      ]),
    );
    expect(ops(up)).not.toContainEqual(["trainer", "replace"]);
    const dump = await ctx.emulator();
    expect((dump.requestCounts[RESTART] ?? 0) - restartsBefore).toBe(1);
    const after = await stack.outputs();
    expect(after.machineId).toBe(machineId);
    expect(after.scriptId).not.toBe(outputs.scriptId);
    const machine = await client().machines.get(machineId);
    expect(machine.state).toBe("ready");
    expect((machine.events ?? []).map((e) => e.name)).toContain("restart");
    const script = await client().scripts.get(String(after.scriptId));
    expect(script.machines).toEqual([expect.objectContaining({ machineId, dtLastRun: expect.any(String) })]);
    outputs = after;
  });

  test("refresh: the machine stopped through the client → the refresh shows it off, and the state holds it", async () => {
    await client().machines.stop(machineId);
    await client().machines.waitFor(machineId, "off", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 50 } });
    const refresh = expectExit(await stack.refresh());
    const machineStep = steps(refresh).find((s) => s.type === "vmapi:index:Machine");
    expect(machineStep?.op).toBe("update");
    expect(changedOutputs(machineStep!)).toContain("currentState");
    const held = (await stack.resources()).find((r) => r.type === "vmapi:index:Machine");
    expect(held?.outputs).toMatchObject({ machineId, currentState: "off" });
  });

  test("destroy: the stack → nothing of it left in the API, nothing in the state", async () => {
    expectExit(await stack.destroy());
    const dump = await ctx.emulator();
    expect(liveMachines(dump)).toEqual([]);
    expect(dump.scripts.filter((s) => s.id === outputs.scriptId)).toEqual([]);
    expect(await stack.resources()).toEqual([]);
  });
});
