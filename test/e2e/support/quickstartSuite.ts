/**
 * The tests of a language's quickstart (examples/go, examples/python), the same for each language:
 * its generated SDK and Automation API program on the real engine and this repository's plugin,
 * against an emulator. goProgram.test.ts and pythonProgram.test.ts run them, one language each.
 */
import { E2eContext, liveMachines } from "./kit";
import { ExampleStack, expectSucceeded, prepareExample, type Language } from "./languageExample";
import type { EmulatorStateDump } from "../../kit/emulator";

/** The first run of a machine builds the Go program or the Python venv: minutes on 2 busy cores. */
const PREPARE_TIMEOUT_MS = 20 * 60_000;
const HOUR = 3_600_000;

/** Requests that change something (every method but GET), by route. */
function writes(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([route]) => !route.startsWith("GET ")));
}

/**
 * What every language's quickstart shows after its first `up`: the data source's answer, a
 * template of the OS the program asked for, made the machine's (`machineInputs`, as the state
 * holds them), and the program's startup script.
 */
// eslint-disable-next-line jest/no-export -- shared with javaProgram.test.ts, whose quickstart runs another way
export function expectQuickstartTemplateAndScript(
  dump: EmulatorStateDump,
  outputs: Record<string, unknown>,
  machineInputs: Record<string, unknown> | undefined,
): void {
  expect(dump.templates.find((t) => t.id === outputs.templateId)).toMatchObject({
    os: "Ubuntu 22.04 Server",
  });
  expect(machineInputs).toMatchObject({ templateId: outputs.templateId });
  expect(dump.scripts.find((s) => s.id === outputs.scriptId)).toMatchObject({
    name: outputs.scriptName,
    runOnce: true,
  });
}

/** Defines the tests of `language`'s quickstart; they run in order on one stack. */
// eslint-disable-next-line jest/no-export -- one suite, run by a test file per language
export function quickstartSuite(language: Language): void {
  beforeAll(() => prepareExample(language), PREPARE_TIMEOUT_MS);

  describe("on an emulator's real clock", () => {
    let ctx: E2eContext;
    let stack: ExampleStack;
    let outputs: Record<string, unknown>;
    beforeAll(async () => {
      ctx = await E2eContext.start();
      stack = await ExampleStack.create(ctx.workspace, language, {
        "vmapi:baseUrl": ctx.emu.url,
        "vmapi:apiKey": { secret: ctx.emu.keys.individual },
        "vmapi:pollScale": String(ctx.timeScale),
      });
    });
    afterAll(async () => {
      await stack?.remove();
      await ctx?.close();
    });

    test("up: a new stack → the machine, its startup script attached by machineId, on the template getTemplates found", async () => {
      const up = expectSucceeded(await stack.program("up"));
      expect(up.summary.changes).toEqual({ create: 3 });
      expect(up.summary.steps.map((s) => [s.op, s.type])).toEqual([
        ["create", "vmapi:index:Machine"],
        ["create", "vmapi:index:Script"],
      ]);
      outputs = up.summary.outputs!;
      const dump = await ctx.emulator();
      const [machine] = liveMachines(dump);
      expect(liveMachines(dump)).toHaveLength(1);
      expect(machine).toMatchObject({
        id: outputs.machineId,
        name: outputs.machineName,
        state: "ready",
        os: "Ubuntu 22.04 Server",
        scriptId: outputs.scriptId,
      });
      expect(outputs.machineState).toBe("ready");
      const held = (await stack.resources()).find((r) => r.type === "vmapi:index:Machine");
      expectQuickstartTemplateAndScript(dump, outputs, held?.inputs);
    });

    test("preview: nothing changed → every resource the same, nothing written to the API", async () => {
      const before = writes((await ctx.emulator()).requestCounts);
      const preview = expectSucceeded(await stack.program("preview"));
      expect(preview.summary.changes).toEqual({ same: 3 });
      expect(preview.summary.steps.map((s) => s.op)).toEqual(["same", "same"]);
      expect(writes((await ctx.emulator()).requestCounts)).toEqual(before);
    });

    test("refresh: the machine stopped through the client → the refresh shows it off, and the state holds it", async () => {
      const client = ctx.client({ maxRetries: 0 });
      const machineId = outputs.machineId as string;
      await client.machines.stop(machineId);
      await client.machines.waitFor(machineId, "off", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });

      const refresh = expectSucceeded(await stack.program("refresh"));
      expect(refresh.summary.changes).toMatchObject({ update: 1 });
      const machineStep = refresh.summary.steps.find((s) => s.type === "vmapi:index:Machine");
      expect(machineStep).toMatchObject({ op: "update" });
      expect(machineStep?.changed).toContain("currentState");
      const held = (await stack.resources()).find((r) => r.type === "vmapi:index:Machine");
      expect(held?.outputs).toMatchObject({ machineId, currentState: "off" });
    });

    test("destroy: the stack → nothing of it left in the API", async () => {
      const destroy = expectSucceeded(await stack.program("destroy"));
      expect(destroy.summary.changes).toEqual({ delete: 3 });
      const dump = await ctx.emulator();
      expect(liveMachines(dump)).toEqual([]);
      expect(dump.scripts.filter((s) => s.id === outputs.scriptId)).toEqual([]);
      expect(await stack.resources()).toEqual([]);
    });
  });

  describe("on a manual clock (machines settle only when the test advances it)", () => {
    let ctx: E2eContext;
    let stack: ExampleStack;
    beforeAll(async () => {
      ctx = await E2eContext.start({ clock: "manual" });
      stack = await ExampleStack.create(ctx.workspace, language, {
        "vmapi:baseUrl": ctx.emu.url,
        "vmapi:apiKey": { secret: ctx.emu.keys.individual },
        "vmapi:pollScale": String(ctx.timeScale),
        createTimeout: "2s",
      });
    });
    afterAll(async () => {
      await stack?.remove();
      await ctx?.close();
    });

    test("up: customTimeouts.create shorter than the provisioning → fails naming the engine's timeout, the machine kept in the stack", async () => {
      // Bounded by the test too: a plugin that ignored the timeout would wait 20 minutes.
      const up = await stack.program("up", 120_000);
      expect(up.code).not.toBe(0);
      expect(up.summary.result).toBe("failed");
      // The program says "2s"; the plugin names the timeout as the engine sent it (in seconds),
      // which it formats in milliseconds.
      expect(up.summary.errors?.join("\n")).toMatch(
        /customTimeouts\.create \(2000ms\) ran out: machine ps\w+ did not become ready/,
      );
      expect(up.summary.steps.map((s) => [s.type, s.failed])).toEqual([["vmapi:index:Machine", true]]);
      const [machine] = liveMachines(await ctx.emulator());
      expect(machine).toMatchObject({ state: "provisioning" });
      expect((await stack.resources()).map((r) => r.id)).toEqual([machine.id]);

      await ctx.emu.control.advance(HOUR);
      expectSucceeded(await stack.program("destroy"));
      expect(liveMachines(await ctx.emulator())).toEqual([]);
    });
  });
}
