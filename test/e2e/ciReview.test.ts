/**
 * Change review as in CI: every `pulumi` and `vmapi-review` step of examples/ci/github-actions.yml,
 * run in order by bash (`-eo pipefail`, as the workflow's `shell: bash`) against the emulator, with
 * `pulumi` on PATH being `npm run pulumi` on test/e2e/programs/review and `vmapi-review` the
 * package's bin, and the workflow's env (the key in VMAPI_API_KEY, the stack in STACK, PARALLEL,
 * the policy pack and its config in POLICY_PACK and POLICY_CONFIG: the program keeps its rules).
 * The comment step needs GitHub: its script runs against a stand-in for GitHub's API, on the text
 * the steps before it wrote.
 * - a pull request: one comment holding the review and the preview, edited (not added) on the next
 *   push; the gates fail on a change that destroys a disk, pass on a rename; a machine replaced
 *   because its script changes → the provider's warning in the review and in the preview's text;
 * - main: `up --parallel`, then `preview --expect-no-changes` passes;
 * - the schedule: the drift check passes, then fails once a machine is stopped out of band;
 * - a pull request that breaks a mandatory rule of the policy pack: its preview step fails.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import { useTempDirs } from "../kit/tempDirs";
import * as path from "path";
import { useE2eContext, EXAMPLES, PROGRAMS, TIME_SCALE, liveMachines } from "./support/kit";
import { REPO } from "./support/cli";
import type { EngineStack } from "./support/engineStack";
import { REPLACED, expectReplacementWarning, reviewWarnings } from "./support/replacementWarning";

jest.setTimeout(420_000);

const WORKFLOW = fs.readFileSync(path.join(EXAMPLES, "ci", "github-actions.yml"), "utf8");
const PROGRAM = path.join(PROGRAMS, "review");

/** The lines of one job of the workflow. */
function jobText(job: string): string {
  const start = WORKFLOW.indexOf(`\n  ${job}:\n`);
  if (start < 0) throw new Error(`no job ${job} in the workflow`);
  return WORKFLOW.slice(start + 1).split(/\n {2}[a-z-]+:\n/)[0];
}

/** The value of `key:` at each place in `text`: inline, or a `|` block (dedented). */
function values(text: string, key: string): string[] {
  const lines = text.split("\n");
  const found: string[] = [];
  lines.forEach((line, i) => {
    const m = new RegExp(`^(\\s*)(?:- )?${key}: (.*)$`).exec(line);
    if (!m) return;
    if (m[2] !== "|") return void found.push(m[2]);
    const block: string[] = [];
    for (const next of lines.slice(i + 1)) {
      if (next.trim() !== "" && next.search(/\S/) <= m[1].length) break;
      block.push(next);
    }
    const indent = Math.min(...block.filter((l) => l.trim()).map((l) => l.search(/\S/)));
    found.push(block.map((l) => l.slice(indent)).join("\n"));
  });
  return found;
}

/** The job's `run:` commands that run `pulumi` or `vmapi-review` (the others set up the runner). */
function commands(job: string): string[] {
  return values(jobText(job), "run").filter((c) => /^(pulumi|vmapi-review) /.test(c));
}

interface Step {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

const ctx = useE2eContext();
const tempDir = useTempDirs();
let stack: EngineStack;
let shims: string;
let policyConfig: string;
beforeAll(async () => {
  stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual);
  // The workflow's setup: the API from the environment, not the stack's config.
  await stack.removeConfig("vmapi:apiKey", "vmapi:baseUrl", "vmapi:pollScale");
  shims = tempDir("vmapi-ci-");
  // The team's rules (docs/policies.md), which the program keeps: its machines are in East Coast
  // (NY2); it protects none and its script is plain, so those two policies are off.
  policyConfig = path.join(shims, "policy.json");
  fs.writeFileSync(
    policyConfig,
    JSON.stringify({
      "allowed-regions": { enforcementLevel: "mandatory", regions: ["East Coast (NY2)"] },
      "protect-machines-with-disks": "disabled",
      "script-text-secret": "disabled",
    }),
  );
  const node = process.execPath;
  const tsNode = require.resolve("ts-node/register/transpile-only");
  fs.writeFileSync(
    path.join(shims, "pulumi"),
    `#!/bin/sh\nTS_NODE_PROJECT="${REPO}/tsconfig.json" exec "${node}" -r "${tsNode}" "${REPO}/tools/pulumi/main.ts" --program "${PROGRAM}" "$@"\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(
    path.join(shims, "vmapi-review"),
    `#!/bin/sh\nexec "${node}" "${REPO}/dist/review/cli.js" "$@"\n`,
    {
      mode: 0o755,
    },
  );
  expectOk(await runJob("up"));
});

/** Runs the job's steps in order in a fresh working directory, as the runner would; stops at the first failure. */
async function runJob(job: string): Promise<{ steps: Step[]; dir: string }> {
  const dir = fs.mkdtempSync(path.join(shims, `${job}-`));
  const env = {
    ...ctx.workspace.env,
    PATH: `${shims}:${process.env.PATH}`,
    STACK: stack.name,
    PARALLEL: "64",
    POLICY_PACK: path.join(REPO, "plugin", "pulumi-analyzer-policy-vmapi"),
    POLICY_CONFIG: policyConfig,
    VMAPI_API_KEY: ctx.emu.keys.individual,
    VMAPI_BASE_URL: ctx.emu.url,
    VMAPI_POLL_SCALE: String(TIME_SCALE),
  };
  const steps: Step[] = [];
  for (const command of commands(job)) {
    const step = await bash(command, dir, env);
    steps.push(step);
    if (step.code !== 0) break;
  }
  return { steps, dir };
}

function bash(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Step> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", command], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("close", (code) => resolve({ command, code: code ?? 1, stdout, stderr }));
  });
}

function expectOk(run: { steps: Step[] }): void {
  const failed = run.steps.find((s) => s.code !== 0);
  if (failed) throw new Error(`${failed.command} exited ${failed.code}\n${failed.stdout}\n${failed.stderr}`);
}

/** GitHub's issue comments API as the comment step's script calls it, over an in-memory pull request. */
class FakeGitHub {
  comments: Array<{ id: number; body: string }> = [{ id: 1, body: "Looks good to me" }];
  calls: string[] = [];
  readonly rest = {
    issues: {
      listComments: async (args: { issue_number: number }) => {
        this.calls.push(`list #${args.issue_number}`);
        return { data: this.comments.map((c) => ({ ...c })) };
      },
      createComment: async (args: { issue_number: number; body: string }) => {
        this.calls.push(`create #${args.issue_number}`);
        this.comments.push({ id: this.comments.length + 1, body: args.body });
      },
      updateComment: async (args: { comment_id: number; body: string }) => {
        this.calls.push(`update ${args.comment_id}`);
        this.comments.find((c) => c.id === args.comment_id)!.body = args.body;
      },
    },
  };
  async paginate<T>(method: (args: never) => Promise<{ data: T[] }>, args: unknown): Promise<T[]> {
    return (await method(args as never)).data;
  }
}

/** Runs the comment step's script (actions/github-script) in `dir`, with `github` the stand-in. */
async function postComment(github: FakeGitHub, dir: string): Promise<void> {
  const [script] = values(jobText("preview"), "script");
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const requireIn = (id: string) =>
    id === "fs"
      ? { readFileSync: (file: string, enc: BufferEncoding) => fs.readFileSync(path.join(dir, file), enc) }
      : require(id);
  const context = { repo: { owner: "acme", repo: "infra" }, issue: { number: 7 } };
  await new AsyncFunction("github", "context", "require", script)(github, context, requireIn);
}

test("ci: pull request → one comment with the review and the preview, edited on the next push; the gates fail on a destroyed disk; a machine replaced for its script → the provider's warning in both", async () => {
  expect(commands("preview").map((c) => c.split(" ").slice(0, 3).join(" "))).toEqual([
    "pulumi stack select",
    "pulumi preview --diff",
    "pulumi preview --json",
    "vmapi-review preview.json --details",
    "vmapi-review preview.json --fail-on",
  ]);
  const [{ id: boxId }] = (await stack.resources()).filter((r) => r.type.endsWith(":Machine")) as {
    id: string;
  }[];
  const github = new FakeGitHub();

  // First push: the machine grows to 60 GB (a replacement).
  await stack.setConfig({ size: "60" });
  const first = await runJob("preview");
  const gate = first.steps[4];
  expect(first.steps.slice(0, 4).map((s) => s.code)).toEqual([0, 0, 0, 0]);
  expect(gate.code).toBe(1);
  expect(gate.stderr).toContain(`--fail-on destroy: 1 disk(s) would be destroyed: box-1 (${boxId}, 50 GB)`);
  await postComment(github, first.dir);
  expect(github.calls).toEqual(["list #7", "create #7"]);
  const comment = github.comments[1].body;
  expect(comment).toBe(fs.readFileSync(path.join(first.dir, "comment.md"), "utf8"));
  expect(comment.startsWith(`#### :tropical_drink: \`preview\` on vmapi-e2e-review/${stack.name}\n`)).toBe(
    true,
  );
  expect(comment).toContain(
    `| \`box\` (box-1, ${boxId}) | **replace** | forced by \`size\` 50 → 60 | $0.0428 → $0.0456 | $31.28 → $33.28 |`,
  );
  expect(comment).toContain(`- 50 GB disk of \`box-1\` (${boxId}), by the replace of \`box\``);
  // The preview's own output, collapsed, as the job log shows it.
  expect(comment).toMatch(
    /<summary>Pulumi report<\/summary>[\s\S]*<pre>[\s\S]*\+-pulumi-nodejs:dynamic\/vmapi:Machine: \(replace\)/,
  );
  expect(comment).toMatch(/~ size\s*: 50 =&gt; 60/);
  expect(comment).not.toContain(ctx.emu.keys.individual);

  // Second push: the size back, a new name instead (in place): the same comment, edited.
  await stack.setConfig({ size: "50", name: "box-2" });
  const second = await runJob("preview");
  expect(second.steps.map((s) => s.code)).toEqual([0, 0, 0, 0, 0]);
  await postComment(github, second.dir);
  expect(github.calls).toEqual(["list #7", "create #7", "list #7", "update 2"]);
  expect(github.comments.map((c) => c.id)).toEqual([1, 2]);
  expect(github.comments[0].body).toBe("Looks good to me");
  expect(github.comments[1].body).toContain(
    `| \`box\` (box-1 → box-2, ${boxId}) | update in place | \`name\` "box-1" → "box-2" |`,
  );
  expect(github.comments[1].body).not.toContain("replace");

  // Third push: the script's text edited, so the machine that names it by scriptId is replaced.
  // The provider's warning (the disk goes, what to write instead) is in the review and in the
  // preview's own output, where the CLI writes it to stderr.
  await stack.removeConfig("name");
  await stack.setConfig({ scriptText: "#!/bin/bash\necho changed\n" });
  const third = await runJob("preview");
  expect(third.steps.map((s) => s.code)).toEqual([0, 0, 0, 0, 1]);
  await postComment(github, third.dir);
  const rescripted = github.comments[1].body;
  const warnings = reviewWarnings(rescripted);
  expect(warnings).toEqual([
    expect.stringMatching(new RegExp(`^- machine box-1 \\(${boxId}\\) ${REPLACED.source}`)),
  ]);
  expectReplacementWarning(warnings);
  const report = rescripted.slice(rescripted.indexOf("<summary>Pulumi report</summary>"));
  expectReplacementWarning(report.split("\n"));
  expect(rescripted).not.toContain(ctx.emu.keys.individual);
  await stack.removeConfig("scriptText");
});

test("ci: main → up --parallel, then no changes; schedule → the drift check passes, then fails on a machine stopped out of band", async () => {
  expect(commands("up")).toEqual([
    'pulumi stack select "$STACK"',
    'pulumi up --yes --non-interactive --diff --parallel "$PARALLEL" --policy-pack "$POLICY_PACK" --policy-pack-config "$POLICY_CONFIG"',
    "pulumi preview --expect-no-changes --non-interactive",
  ]);
  await stack.setConfig({ name: "box-3" });
  expectOk(await runJob("up"));
  const [box] = liveMachines(await ctx.emulator()).filter((m) => m.name === "box-3");
  expect(box).toMatchObject({ state: "ready" });

  expect(commands("drift")).toEqual([
    'pulumi stack select "$STACK"',
    "pulumi preview --refresh --expect-no-changes --non-interactive --diff",
  ]);
  expectOk(await runJob("drift"));

  const client = ctx.client();
  await client.machines.stop(box.id);
  await client.machines.waitFor(box.id, "off", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  const drifted = await runJob("drift");
  const check = drifted.steps[1];
  expect(check.code).not.toBe(0);
  expect(check.stdout).toMatch(/~\s+pulumi-nodejs:dynamic\/vmapi:Machine: \(update\)/);
  expect(`${check.stdout}${check.stderr}`).toMatch(
    /no changes were expected for preview but changes were proposed/,
  );
  // A preview changes nothing: the machine stays stopped until an `up`.
  expect((await ctx.emulator()).machines.find((m) => m.id === box.id)).toMatchObject({ state: "off" });
});

test("ci: pull request breaking a mandatory rule of the policy pack → the preview step fails naming the policy, nothing after it runs", async () => {
  const kept = fs.readFileSync(policyConfig, "utf8");
  fs.writeFileSync(
    policyConfig,
    JSON.stringify({ "allowed-regions": { enforcementLevel: "mandatory", regions: ["Europe (AMS1)"] } }),
  );
  try {
    const run = await runJob("preview");
    expect(run.steps.map((s) => s.code === 0)).toEqual([true, false]);
    expect(run.steps[1].stdout).toContain("[mandatory]  allowed-regions");
    expect(run.steps[1].stdout).toContain(
      'region "East Coast (NY2)" is not allowed: use one of "Europe (AMS1)"',
    );
  } finally {
    fs.writeFileSync(policyConfig, kept);
  }
});
