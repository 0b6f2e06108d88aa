/**
 * The `import` resource option from a Go or a Python program (test/e2e/programs/importGo,
 * importPython), the same checks for each: a machine made outside Pulumi, taken in by the program
 * with no warning and nothing sent but reads, then a preview with no change. goModule.test.ts and
 * pythonPackage.test.ts run them on the SDK installed as a user installs it.
 */
import { MACHINE_BASICS } from "../../kit/machines";
import { SEEDED } from "../../kit/seeded";
import type { E2eContext } from "./kit";
import { liveMachines } from "./kit";
import { ExampleStack, expectSucceeded, type Language, type OtherProgram } from "./languageExample";

/** Requests that change something (every method but GET), by route. */
function writes(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([route]) => !route.startsWith("GET ")));
}

/**
 * Makes a machine through the client, then runs `program` (which imports it) on a new stack:
 * `up` imports it with no warning and no write to the API; `preview` changes nothing; `destroy`
 * deletes it. Returns what `up` exported.
 */
export async function expectImportRoundTrip(
  ctx: E2eContext,
  language: Language,
  program: OtherProgram,
): Promise<Record<string, unknown>> {
  const client = ctx.client({ maxRetries: 0 });
  const made = await client.machines.create({
    ...MACHINE_BASICS,
    machineName: `made-outside-${language}`,
    templateId: SEEDED.headlessTemplate,
  });
  await client.machines.waitFor(made.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  const stack = await ExampleStack.create(
    ctx.workspace,
    language,
    {
      "vmapi:baseUrl": ctx.emu.url,
      "vmapi:apiKey": { secret: ctx.emu.keys.individual },
      "vmapi:pollScale": String(ctx.timeScale),
      machineId: made.id,
      machineName: made.name,
      region: MACHINE_BASICS.region,
      machineType: MACHINE_BASICS.machineType,
      size: String(MACHINE_BASICS.size),
      billingType: MACHINE_BASICS.billingType,
    },
    undefined,
    program,
  );
  try {
    const before = writes((await ctx.emulator()).requestCounts);
    const up = expectSucceeded(await stack.program("up"));
    expect(up.summary.steps.map((s) => [s.op, s.type])).toEqual([["import", "vmapi:index:Machine"]]);
    // The engine's progress (stderr with --json) shows any warning, "inputs to import do not match" among them.
    expect(up.stderr).not.toMatch(/warning/i);
    expect(up.summary.outputs).toMatchObject({ machineId: made.id, size: MACHINE_BASICS.size });
    expect(writes((await ctx.emulator()).requestCounts)).toEqual(before);

    const preview = expectSucceeded(await stack.program("preview"));
    expect(preview.summary.steps.map((s) => s.op)).toEqual(["same"]);
    expect(preview.stderr).not.toMatch(/warning/i);

    expectSucceeded(await stack.program("destroy"));
    expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(made.id);
    return up.summary.outputs ?? {};
  } finally {
    await stack.remove();
  }
}
