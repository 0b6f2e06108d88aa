/**
 * The `vmapi-review` command line, run in-process (runReviewCli with its reads and writes
 * injected): a file or stdin, --prices, --fail-on, --details, and every bad argument → exit 2
 * with a message naming it, and nothing on stdout.
 */
import * as fs from "fs";
import * as path from "path";
import { runReviewCli, type CliIo } from "../../../src/review/cli";

const FIXTURES = path.join(__dirname, "fixtures");

/** An io whose files are `files`, whose stdin is `stdin`, and that records what is written. */
function io(files: Record<string, string> = {}, stdin = ""): CliIo & { out: string; err: string } {
  const recorded = {
    out: "",
    err: "",
    readFile(file: string): string {
      if (file in files) return files[file];
      if (fs.existsSync(path.join(FIXTURES, file))) return fs.readFileSync(path.join(FIXTURES, file), "utf8");
      throw Object.assign(new Error(`ENOENT: ${file}`), { code: "ENOENT" });
    },
    readStdin: async () => stdin,
    stdout: (text: string) => void (recorded.out += text),
    stderr: (text: string) => void (recorded.err += text),
  };
  return recorded;
}

const preview = (name: string) => fs.readFileSync(path.join(FIXTURES, `${name}.json`), "utf8");

test("cli: a file, or stdin (none or -) → the same Markdown, exit 0", async () => {
  const fromFile = io();
  expect(await runReviewCli(["replace-size.json"], fromFile)).toBe(0);
  expect(fromFile.out).toMatch(/^### vmapi review of /);
  for (const args of [[], ["-"]]) {
    const fromStdin = io({}, preview("replace-size"));
    expect(await runReviewCli(args, fromStdin)).toBe(0);
    expect(fromStdin.out).toBe(fromFile.out);
  }
});

test("cli: --fail-on destroy on a replace → the Markdown still written, the gate on stderr, exit 1", async () => {
  const run = io();
  expect(await runReviewCli(["replace-size.json", "--fail-on", "destroy"], run)).toBe(1);
  expect(run.out).toContain("**CI gate failed:**");
  expect(run.err).toMatch(
    /^vmapi-review: --fail-on destroy: 1 disk\(s\) would be destroyed: box-1 \(ps\w+, 50 GB\)\n$/,
  );
  const passing = io();
  expect(
    await runReviewCli(["rename.json", "--fail-on", "destroy", "--fail-on", "cost-increase=0"], passing),
  ).toBe(0);
  expect(passing.err).toBe("");
});

test("cli: --prices FILE → its rates; a bad price file → exit 2 naming the file and the field", async () => {
  const prices = JSON.stringify({
    name: "team prices",
    machineTypes: { C4: { hourly: 0.05, monthly: 30 } },
    storage: [{ upToGb: 100, monthly: 4 }],
  });
  const run = io({ "prices.json": prices });
  expect(await runReviewCli(["rename.json", "--prices", "prices.json"], run)).toBe(0);
  expect(run.out).toContain("$40.50 → $40.50"); // 0.05 × 730 + 4
  expect(run.out).toContain("<sub>Prices: team prices.");

  const cases: Array<[unknown, string]> = [
    [
      {
        name: "x",
        machineTypes: { C4: { hourly: "cheap", monthly: 1 } },
        storage: [{ upToGb: 50, monthly: 1 }],
      },
      'bad.json: machineTypes.C4.hourly must be a non-negative number such as 0.036 (got "cheap")',
    ],
    [
      { name: "x", machineTypes: { C4: { hourly: 1 } }, storage: [{ upToGb: 50, monthly: 1 }] },
      "bad.json: machineTypes.C4.monthly must be a non-negative number such as 0.036 (got nothing)",
    ],
    [
      { machineTypes: { C4: { hourly: 1, monthly: 1 } }, storage: [{ upToGb: 50, monthly: 1 }] },
      "bad.json: name is required",
    ],
    [
      {
        name: "x",
        machineTypes: { C4: { hourly: 1, monthly: 1 } },
        storage: [
          { upToGb: 100, monthly: 1 },
          { upToGb: 50, monthly: 1 },
        ],
      },
      "bad.json: storage must list its tiers in ascending order of upToGb",
    ],
    [
      { name: "x", machineTypes: {}, storage: [{ upToGb: 50, monthly: 1 }], currency: "EUR" },
      "bad.json: machineTypes must name at least one machine type; unknown field currency",
    ],
  ];
  for (const [file, message] of cases) {
    const bad = io({ "bad.json": JSON.stringify(file) });
    expect(await runReviewCli(["rename.json", "--prices", "bad.json"], bad)).toBe(2);
    expect(bad.err).toBe(`vmapi-review: ${message}\n`);
    expect(bad.out).toBe("");
  }
  const notJson = io({ "bad.json": "{" });
  expect(await runReviewCli(["rename.json", "--prices", "bad.json"], notJson)).toBe(2);
  expect(notJson.err).toMatch(/^vmapi-review: bad\.json is not JSON/);
});

test.each([
  [
    ["rename.json", "--fail-on", "everything"],
    '--fail-on: unknown gate "everything"; allowed: destroy, cost-increase=<dollars per month>',
  ],
  [
    ["rename.json", "--fail-on", "cost-increase=lots"],
    '--fail-on cost-increase needs a non-negative amount of dollars per month (got "lots")',
  ],
  [["rename.json", "--fail-on", "cost-increase="], "--fail-on cost-increase needs a non-negative amount"],
  [["rename.json", "--price", "p.json"], "Unknown option '--price'"],
  [["rename.json", "stop.json"], "one preview at a time (got 2 files)"],
  [["missing.json"], "cannot read the preview missing.json: ENOENT"],
  [["rename.json", "--prices", "missing.json"], "cannot read the price file missing.json: ENOENT"],
])("cli: %j → exit 2, the usage, nothing on stdout", async (args, message) => {
  const run = io();
  expect(await runReviewCli(args, run)).toBe(2);
  expect(run.err).toContain(message);
  expect(run.err).toContain("Usage: vmapi-review [PREVIEW_JSON | -]");
  expect(run.out).toBe("");
});

test("cli: stdin that is the preview's text output, not its JSON → exit 2 saying to use --json", async () => {
  const run = io({}, "Previewing update (dev):\n     Type  Name\n");
  expect(await runReviewCli([], run)).toBe(2);
  expect(run.err).toContain("the preview is not JSON: give the output of `pulumi preview --json`");
});

test("cli: --details LOG → the whole pull-request comment in pulumi/actions' layout, the log escaped and uncoloured", async () => {
  const log = "\u001b[1mPreviewing update\u001b[0m\n +-  box  replace  <size>\nResources: 1 to replace\n";
  const run = io({ "preview.txt": log });
  expect(await runReviewCli(["replace-size.json", "--details", "preview.txt"], run)).toBe(0);
  const stack = /review of `vmapi-e2e-review\/(\w+)`/.exec(run.out)![1];
  expect(
    run.out.startsWith(`#### :tropical_drink: \`preview\` on vmapi-e2e-review/${stack}\n\n### vmapi review`),
  ).toBe(true);
  expect(run.out).toContain(
    "\n<details>\n<summary>Pulumi report</summary>\n\n\n<pre>\nPreviewing update\n +-  box  replace  &lt;size&gt;\nResources: 1 to replace\n</pre>\n</details>\n",
  );
});

test("cli: --help → the usage on stdout, exit 0", async () => {
  const run = io();
  expect(await runReviewCli(["--help"], run)).toBe(0);
  expect(run.out).toMatch(/^Usage: vmapi-review/);
});
