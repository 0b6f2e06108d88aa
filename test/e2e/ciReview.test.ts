/**
 * Change review as in CI: every `pulumi` step of examples/ci/github-actions.yml, run in order
 * against the emulator with the key in VMAPI_API_KEY as the workflow has it. On a changed program
 * (a machine renamed and resized), the preview job's `preview --diff` shows what a reviewer needs
 * (the name changing in place, the size forcing a replacement) and `preview --json` carries the
 * same; the up job applies it and its last step finds nothing left to do.
 */
import * as fs from "fs";
import * as path from "path";
import { E2eContext, EXAMPLES, PROGRAMS, TIME_SCALE } from "./support/kit";
import { EngineStack } from "./support/engineStack";
import { expectExit, type CliRun } from "./support/cli";

jest.setTimeout(180_000);

const WORKFLOW = path.join(EXAMPLES, "ci", "github-actions.yml");

/** The `pulumi ...` command lines of one job of the workflow, in order, with `$STACK` filled in. */
function pulumiSteps(job: string, stack: string): string[][] {
  const text = fs.readFileSync(WORKFLOW, "utf8");
  const body = text.slice(text.indexOf(`\n  ${job}:\n`) + 1).split(/\n {2}[a-z]+:\n/)[0];
  return [...body.matchAll(/^\s+(?:- )?run: pulumi (.+)$/gm)].map((m) =>
    m[1]
      .replace(/\s*>\s*\S+$/, "") // the artifact redirection: the test reads stdout itself
      .replace(/"\$STACK"/g, stack)
      .split(/\s+/),
  );
}

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await E2eContext.start();
});
afterAll(() => ctx.close());

test("ci: renamed and resized machine → preview --diff and --json show name in place, size replace; up; then no changes", async () => {
  // As the workflow: the key and endpoint from the environment, no vmapi config in the stack.
  const env = {
    VMAPI_API_KEY: ctx.emu.keys.individual,
    VMAPI_BASE_URL: ctx.emu.url,
    VMAPI_POLL_SCALE: String(TIME_SCALE),
  };
  const stack = await EngineStack.create(ctx.workspace, path.join(PROGRAMS, "machine"), { name: "box-1" });
  ctx.stacks.push(stack);
  const run = (args: string[]) => ctx.workspace.run(["--program", stack.programDir, ...args], { env });
  expectExit(await stack.cli(["up", "--yes"], { env }));

  // The pull request: a new name (in place) and a new size (replacement).
  await stack.setConfig({ name: "box-2", size: "60" });
  const preview: CliRun[] = [];
  const previewSteps = pulumiSteps("preview", stack.name);
  expect(previewSteps.map((s) => s.slice(0, 2).join(" "))).toEqual([
    "stack select",
    "preview --diff",
    "preview --json",
  ]);
  for (const step of previewSteps) preview.push(expectExit(await run(step)));

  const diff = preview[1].stdout;
  expect(diff).toMatch(/\+-pulumi-nodejs:dynamic\/vmapi:Machine: \(replace\)/);
  expect(diff).toMatch(/~ name\s*: "box-1" => "box-2"/);
  expect(diff).toMatch(/~ size\s*: 50 => 60/);
  type State = { inputs: Record<string, unknown> };
  const plan = JSON.parse(preview[2].stdout) as {
    steps: Array<{ op: string; urn: string; replaceReasons?: string[]; oldState: State; newState: State }>;
  };
  const box = plan.steps.find((s) => s.urn.endsWith("::box"))!;
  expect(box.op).toBe("replace");
  expect(box.replaceReasons).toEqual(["size"]);
  // The dynamic-provider plugin forwards no per-property diff (no diffReasons/detailedDiff): the
  // JSON carries the change as the old and new inputs.
  expect([box.oldState.inputs.name, box.newState.inputs.name]).toEqual(["box-1", "box-2"]);
  expect([box.oldState.inputs.size, box.newState.inputs.size]).toEqual([50, 60]);

  const upSteps = pulumiSteps("up", stack.name);
  expect(upSteps.map((s) => s.slice(0, 2).join(" "))).toEqual([
    "stack select",
    "up --yes",
    "preview --expect-no-changes",
  ]);
  for (const step of upSteps) expectExit(await run(step));
  const machines = (await ctx.emulator()).machines.filter((m) => m.dtDestroyed === null);
  expect(machines.map((m) => [m.name, m.storageTotal])).toEqual([["box-2", String(60 * 2 ** 30)]]); // bytes
});
