/**
 * The names a preview shows are the names `up` makes, on the real engine
 * (test/e2e/programs/naming: an auto-named and a named Script and Machine, the auto-named machine
 * running the auto-named script): every preview shows the same names, `pulumi preview
 * --save-plan` then `pulumi up --plan` succeeds and makes them, a replacement's new name is also
 * the same in preview and up (even when the input that replaces is unknown in the preview), and
 * two stacks of one program never share an auto-name. The tests run in order on one stack.
 */
import * as fs from "fs";
import { useTempDirs } from "../kit/tempDirs";
import * as path from "path";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { expectExit, steps, type CliRun } from "./support/cli";
import type { EngineStack } from "./support/engineStack";

jest.setTimeout(240_000);

const PROGRAM = path.join(PROGRAMS, "naming");
/** The program's resources by the key of its `names` output. */
const RESOURCES = {
  autoScript: "auto-s",
  namedScript: "named-s",
  autoMachine: "auto-m",
  namedMachine: "named-m",
};

const ctx = useE2eContext();
const tempDir = useTempDirs();
let stack: EngineStack;
let planDir: string;
beforeAll(async () => {
  stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual);
  planDir = tempDir("vmapi-plans-");
});

/** The name each resource will have after the previewed up (its `names` key → name). */
function previewedNames(preview: CliRun): Record<string, string> {
  const byResource = new Map<string, string>();
  for (const step of steps(preview)) {
    if (["delete", "delete-replaced", "replace"].includes(step.op)) continue;
    const name = step.new?.inputs?.name;
    if (typeof name === "string") byResource.set(step.name, name);
  }
  return Object.fromEntries(
    Object.entries(RESOURCES).map(([key, resource]) => [key, byResource.get(resource)!]),
  );
}

async function outputNames(of: EngineStack = stack): Promise<Record<string, string>> {
  return (await of.outputs()).names as Record<string, string>;
}

/**
 * `pulumi preview --save-plan <file>`, then `pulumi up --plan <file>`; both must succeed. CLI
 * v3.274.1 needs no PULUMI_EXPERIMENTAL for either (`up --plan` is hidden from `up --help`
 * without it, but works): it is set to false here so the test shows that.
 */
async function previewThenUpWithPlan(file: string): Promise<{ preview: CliRun; up: CliRun }> {
  const plan = path.join(planDir, file);
  const env = { PULUMI_EXPERIMENTAL: "false" };
  const preview = expectExit(await stack.cli(["preview", "--save-plan", plan], { events: true, env }));
  const up = expectExit(await stack.cli(["up", "--yes", "--plan", plan], { events: true, env }));
  expect(JSON.parse(fs.readFileSync(plan, "utf8"))).toHaveProperty("resourcePlans");
  return { preview, up };
}

let firstNames: Record<string, string>;

test("new stack: every preview shows the same names; preview --save-plan then up --plan → succeeds and makes them", async () => {
  const again = previewedNames(expectExit(await stack.preview()));
  const { preview } = await previewThenUpWithPlan("create.json");
  firstNames = previewedNames(preview);
  expect(firstNames).toEqual(again);
  expect(firstNames).toEqual({
    autoScript: expect.stringMatching(/^auto-s-[a-z0-9]{7}$/),
    namedScript: `named-script-${stack.name}`,
    autoMachine: expect.stringMatching(/^auto-m-[a-z0-9]{7}$/),
    namedMachine: `named-machine-${stack.name}`,
  });
  expect(await outputNames()).toEqual(firstNames);
  const dump = await ctx.emulator();
  expect(dump.scripts.map((s) => s.name).sort()).toEqual(
    [firstNames.autoScript, firstNames.namedScript].sort(),
  );
  expect(dump.machines.map((m) => m.name).sort()).toEqual(
    [firstNames.autoMachine, firstNames.namedMachine].sort(),
  );
});

test("no change: preview --save-plan then up --plan → nothing to do, the names kept", async () => {
  const { preview, up } = await previewThenUpWithPlan("same.json");
  expect(steps(preview).every((s) => s.op === "same")).toBe(true);
  expect(steps(up).every((s) => s.op === "same")).toBe(true);
  expect(await outputNames()).toEqual(firstNames);
});

test("replace: script text and disk size changed → the replacements' new auto-names are in the preview, and up --plan makes them", async () => {
  await stack.setConfig({ text: "#!/bin/bash\necho two\n", size: "100" });
  const { preview, up } = await previewThenUpWithPlan("replace.json");
  expect(
    steps(preview)
      .filter((s) => s.op === "replace")
      .map((s) => s.name)
      .sort(),
  ).toEqual(["auto-m", "auto-s", "named-m", "named-s"]);
  const planned = previewedNames(preview);
  expect(planned.autoScript).toMatch(/^auto-s-[a-z0-9]{7}$/);
  expect(planned.autoMachine).toMatch(/^auto-m-[a-z0-9]{7}$/);
  expect(planned.autoScript).not.toBe(firstNames.autoScript);
  expect(planned.autoMachine).not.toBe(firstNames.autoMachine);
  expect([planned.namedScript, planned.namedMachine]).toEqual([
    firstNames.namedScript,
    firstNames.namedMachine,
  ]);
  expect(steps(up).filter((s) => s.op === "replace")).toHaveLength(4);
  expect(await outputNames()).toEqual(planned);
});

test("two stacks of one program → different auto-names", async () => {
  const other = await ctx.stack(PROGRAM, ctx.emu.keys.individual);
  const otherNames = previewedNames(expectExit(await other.preview()));
  const ours = await outputNames();
  expect(otherNames.autoScript).toMatch(/^auto-s-[a-z0-9]{7}$/);
  expect(otherNames.autoScript).not.toBe(ours.autoScript);
  expect(otherNames.autoMachine).not.toBe(ours.autoMachine);
  // And not the names this stack had before its replacements.
  expect([otherNames.autoScript, otherNames.autoMachine]).not.toContain(firstNames.autoScript);
  expect([otherNames.autoScript, otherNames.autoMachine]).not.toContain(firstNames.autoMachine);
});
