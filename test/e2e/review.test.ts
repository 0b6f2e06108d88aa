/**
 * vmapi-review on previews of the real engine: one stack of test/e2e/programs/review (a machine
 * `box` booting the script `setup`), brought up once, then previewed with one change at a time
 * (create, no changes, in-place rename, replace by size, replace by script, stop, delete, adopt);
 * and the replace by size and by script of the same machine in a Pulumi YAML program on the
 * plugin. A replace by script carries the provider's warning, in each route's shape.
 * Each `pulumi preview --json --show-sames` goes through the `vmapi-review` bin (dist/review/cli.js)
 * and the Markdown is checked. With VMAPI_CAPTURE_REVIEW_FIXTURES=1 the previews are also written
 * to test/unit/review/fixtures, the captured JSON the unit tests read (or name some: =start,stop):
 *
 *   VMAPI_CAPTURE_REVIEW_FIXTURES=1 npx jest test/e2e/review.test.ts
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { REPO, expectExit } from "./support/cli";
import { REPLACED, expectReplacementWarning, reviewWarnings } from "./support/replacementWarning";
import type { EngineStack, StackConfig } from "./support/engineStack";
import { SEEDED } from "../kit/seeded";

jest.setTimeout(300_000);

const BIN = path.join(REPO, "dist", "review", "cli.js");
const FIXTURES = path.join(REPO, "test", "unit", "review", "fixtures");
/** "1": capture every preview; else a comma-separated list of the previews to capture. */
const CAPTURE = (process.env.VMAPI_CAPTURE_REVIEW_FIXTURES ?? "").split(",");

/** Runs the bin on `json` (stdin) with `args`. */
function review(json: string, ...args: string[]): { code: number; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, ...args], { input: json, encoding: "utf8" });
  return { code: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

const ctx = useE2eContext();
let stack: EngineStack;
let boxId: string;
beforeAll(async () => {
  stack = await ctx.stack(path.join(PROGRAMS, "review"), ctx.emu.keys.individual, {
    assignPublicIp: "true",
    releasePublicIpOnDestroy: "true",
  });
});

/**
 * `preview --json --show-sames` of `on` (the TypeScript stack unless told) with `config` set for
 * this preview only; saved as a fixture when capturing.
 */
async function preview(name: string, config: StackConfig = {}, on: EngineStack = stack): Promise<string> {
  await on.setConfig(config);
  const run = expectExit(await on.cli(["preview", "--json", "--show-sames"]));
  if (Object.keys(config).length > 0) await on.removeConfig(...Object.keys(config));
  if (CAPTURE.includes("1") || CAPTURE.includes(name)) {
    fs.mkdirSync(FIXTURES, { recursive: true });
    // As the CLI wrote it, laid out as the repository's JSON is (prettier), so lint passes;
    // prettier in a child process, since its dynamic imports do not run inside jest.
    const file = path.join(FIXTURES, `${name}.json`);
    const prettier = require.resolve("prettier/bin/prettier.cjs");
    const formatted = spawnSync(process.execPath, [prettier, "--stdin-filepath", file], {
      input: run.stdout,
    });
    if (formatted.status !== 0) throw new Error(`prettier: ${formatted.stderr}`);
    fs.writeFileSync(file, formatted.stdout);
  }
  return run.stdout;
}

test("review: create → the machine, its cost and the script it boots with; up; no changes → the stack's cost unchanged", async () => {
  const created = review(await preview("create"));
  expect(created.code).toBe(0);
  expect(created.stdout).toContain(`### vmapi review of \`vmapi-e2e-review/${stack.name}\``);
  expect(created.stdout).toContain(
    "**Machines: 1 to create.** Cost +$0.0428/h, +$31.28/month ($0.00 → $31.28).",
  );
  expect(created.stdout).toContain("| `box` (box-1) | create |  | – → $0.0428 | – → $31.28 |");
  expect(created.stdout).toContain("- `box-1` (new) runs `setup-script` once (a new script)");
  expect(created.stdout).toContain("- Script `setup`: create");
  expect(created.stdout).not.toContain("Disks destroyed");

  expectExit(await stack.up());
  [{ id: boxId }] = (await stack.resources()).filter((r) => r.type.endsWith(":Machine")) as { id: string }[];
  const same = review(await preview("no-changes"));
  expect(same.stdout).toContain("**No machine changes.** Cost unchanged at $0.0428/h, $31.28/month.");
  expect(same.stdout).toContain(
    `| \`box\` (box-1, ${boxId}) | no change |  | $0.0428 → $0.0428 | $31.28 → $31.28 |`,
  );
  expect(same.stdout).toContain(
    "| **stack** (1 machine after) |  |  | **$0.0428 → $0.0428** | **$31.28 → $31.28** |",
  );
});

test("review: rename → update in place naming the input; stop → the machine's hours leave the cost", async () => {
  const renamed = review(await preview("rename", { name: "box-2" }));
  expect(renamed.stdout).toContain(
    `| \`box\` (box-1 → box-2, ${boxId}) | update in place | \`name\` "box-1" → "box-2" | $0.0428 → $0.0428 | $31.28 → $31.28 |`,
  );
  expect(renamed.stdout).not.toContain("Disks destroyed");

  const stopped = review(await preview("stop", { state: "off" }));
  expect(stopped.stdout).toContain(
    "**Machines: 1 to stop.** Cost -$0.0360/h, -$26.28/month ($31.28 → $5.00).",
  );
  expect(stopped.stdout).toContain(
    `| \`box\` (box-1, ${boxId}) | stop |  | $0.0428 → $0.0068 | $31.28 → $5.00 |`,
  );
});

test("review: size → replace forced by size, the 50 GB disk destroyed, the static IP released; the gates fail on it", async () => {
  const json = await preview("replace-size", { size: "100" });
  const resized = review(json);
  expect(resized.stdout).toContain(
    "**Machines: 1 to replace.** Cost +$0.0027/h, +$2.00/month ($31.28 → $33.28). **Destroys 1 disk.**",
  );
  expect(resized.stdout).toContain(
    `| \`box\` (box-1, ${boxId}) | **replace** | forced by \`size\` 50 → 100 | $0.0428 → $0.0456 | $31.28 → $33.28 |`,
  );
  expect(resized.stdout).toContain(`- 50 GB disk of \`box-1\` (${boxId}), by the replace of \`box\``);
  expect(resized.stdout).toMatch(/^- 100\.64\.\d+\.\d+ \(static\) of `box-1` is released by the replace$/m);
  expect(resized.stdout).toContain("- `box-1` (replacement) runs `setup-script` once");

  const gated = review(json, "--fail-on", "destroy");
  expect(gated.code).toBe(1);
  expect(gated.stderr).toContain(`--fail-on destroy: 1 disk(s) would be destroyed: box-1 (${boxId}, 50 GB)`);
  expect(gated.stdout).toContain("**CI gate failed:**");
  expect(review(json, "--fail-on", "cost-increase=1").code).toBe(1);
  expect(review(json, "--fail-on", "cost-increase=5").code).toBe(0);
});

test("review: script text → the script replaced and the machine with it, forced by the new script id; the provider's warning that the disk goes, and what to write instead", async () => {
  const rescripted = review(await preview("replace-script", { scriptText: "#!/bin/bash\necho changed\n" }));
  // The dynamic provider's warning reaches the engine as a line of its stderr, with no resource.
  const warnings = reviewWarnings(rescripted.stdout);
  expect(warnings).toEqual([
    expect.stringMatching(new RegExp(`^- machine box-1 \\(${boxId}\\) ${REPLACED.source}`)),
  ]);
  expectReplacementWarning(warnings);
  expect(rescripted.stdout).toContain(`| \`box\` (box-1, ${boxId}) | **replace** | forced by \`scriptId\` "`);
  expect(rescripted.stdout).toContain(
    "→ (from `setup`, known after up) | $0.0428 → $0.0428 | $31.28 → $31.28 |",
  );
  expect(rescripted.stdout).toContain("- Script `setup`: replace (forced by the script's text)");
  expect(rescripted.stdout).toContain(
    "- `box-1` (replacement) runs `setup-script` once (the script is replaced)",
  );
  expect(rescripted.stdout).toContain(`- 50 GB disk of \`box-1\` (${boxId}), by the replace of \`box\``);
});

test("review: the machine left out of the program → delete, its disk destroyed; adopt → an existing machine at no new cost", async () => {
  const deleted = review(await preview("delete", { withBox: "false" }));
  expect(deleted.stdout).toContain(
    "**Machines: 1 to delete.** Cost -$0.0428/h, -$31.28/month ($31.28 → $0.00). **Destroys 1 disk.**",
  );
  expect(deleted.stdout).toContain(
    `| \`box\` (box-1, ${boxId}) | **delete** |  | $0.0428 → – | $31.28 → – |`,
  );
  expect(deleted.stdout).toContain(`- 50 GB disk of \`box-1\` (${boxId}), by the delete of \`box\``);

  const client = ctx.client();
  const legacy = await client.machines.create({
    region: "East Coast (NY2)",
    machineType: "C2",
    size: 50,
    billingType: "monthly",
    machineName: "legacy-1",
    templateId: SEEDED.headlessTemplate,
  });
  await client.machines.waitFor(legacy.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  const adopted = review(await preview("adopt", { adoptMachineId: legacy.id, adoptName: "legacy-1" }));
  expect(adopted.stdout).toContain("**Machines: 1 to adopt.** Cost unchanged at $0.0565/h, $41.28/month.");
  expect(adopted.stdout).toContain(
    "| `adopted` (legacy-1) | adopt | an existing machine: no new cost | $0.0137 → $0.0137 | $10.00 → $10.00 |",
  );
  expect(adopted.stdout).not.toContain("Disks destroyed");
});

test("review: a stopped machine declared on again → start, its hours back in the cost, no script (it ran once already)", async () => {
  await stack.setConfig({ state: "off" });
  expectExit(await stack.up());
  await stack.removeConfig("state");
  const started = review(await preview("start"));
  expect(started.stdout).toContain(
    "**Machines: 1 to start.** Cost +$0.0360/h, +$26.28/month ($5.00 → $31.28).",
  );
  expect(started.stdout).toContain(
    `| \`box\` (box-1, ${boxId}) | start |  | $0.0068 → $0.0428 | $5.00 → $31.28 |`,
  );
  expect(started.stdout).not.toContain("Scripts at next boot");
});

test("review of a Pulumi YAML stack on the plugin: size → the same replace forced by size, its disk destroyed, the gate fails on it; script text → the provider's warning on the machine's row", async () => {
  const yaml = await ctx.stack(path.join(PROGRAMS, "yaml", "review"), ctx.emu.keys.individual);
  expectExit(await yaml.up());
  const [{ id }] = (await yaml.resources()).filter((r) => r.type === "vmapi:index:Machine") as {
    id: string;
  }[];
  await yaml.setConfig({ size: "100" });
  const json = expectExit(await yaml.cli(["preview", "--json", "--show-sames"])).stdout;
  const resized = review(json);
  expect(resized.stdout).toContain(
    "**Machines: 1 to replace.** Cost +$0.0027/h, +$2.00/month ($31.28 → $33.28). **Destroys 1 disk.**",
  );
  expect(resized.stdout).toContain(
    `| \`box\` (yaml-box-1, ${id}) | **replace** | forced by \`size\` 50 → 100 | $0.0428 → $0.0456 | $31.28 → $33.28 |`,
  );
  expect(resized.stdout).toContain("- `yaml-box-1` (replacement) runs `yaml-setup-script` once");
  const gated = review(json, "--fail-on", "destroy");
  expect(gated.code).toBe(1);
  expect(gated.stderr).toContain(
    `--fail-on destroy: 1 disk(s) would be destroyed: yaml-box-1 (${id}, 50 GB)`,
  );
  await yaml.removeConfig("size");

  const rescripted = review(
    await preview("yaml-replace-script", { scriptText: "#!/bin/bash\necho changed\n" }, yaml),
  );
  expect(rescripted.stdout).toContain(`forced by \`scriptId\` "`);
  // The plugin sends the warning with the machine's URN: the review names the resource.
  const warnings = reviewWarnings(rescripted.stdout);
  expect(warnings).toEqual([
    expect.stringMatching(new RegExp(`^- \`box\`: machine yaml-box-1 \\(${id}\\) ${REPLACED.source}`)),
  ]);
  expectReplacementWarning(warnings);
  expectExit(await yaml.destroy());
});
