/**
 * `vmapi-review` on a large preview: a stack of `--machines N` machines (default 300), each with
 * its startup script (2N + 1 resources), built from the real engine's captured replace-by-size
 * preview (test/unit/review/fixtures): a third of the machines replaced, a third renamed in
 * place, a third unchanged. Prints the review's time in-process (median of `--runs`, default 7)
 * and the bin's wall time end to end (Node start included), beside the time Node takes to start
 * and exit with nothing to do, on the same machine.
 *
 *   npx ts-node --transpile-only bench/review.ts [--machines 300] [--runs 7]   (after npm run build)
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { reviewPreview } from "../src/review/index";

const REPO = path.resolve(__dirname, "..");
const FIXTURE = path.join(REPO, "test", "unit", "review", "fixtures", "replace-size.json");

type Step = {
  op: string;
  urn: string;
  oldState?: Record<string, unknown>;
  newState?: Record<string, unknown>;
};

/** `machines` machines and their scripts, every URN and id unique, as one preview's JSON. */
export function largePreview(machines: number): string {
  const digest = JSON.parse(fs.readFileSync(FIXTURE, "utf8")) as {
    steps: Step[];
    changeSummary: Record<string, number>;
  };
  const [root, script, box] = [
    digest.steps[0],
    ...["::setup", "::box"].map((n) => digest.steps.find((s) => s.urn.endsWith(n))!),
  ];
  const steps: Step[] = [root];
  const summary: Record<string, number> = { same: 1 };
  for (let i = 0; i < machines; i++) {
    const rename = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value).replaceAll("::box", `::box-${i}`).replaceAll("::setup", `::setup-${i}`),
      );
    const machine = rename(box) as Step;
    const op = ["replace", "update", "same"][i % 3];
    machine.op = op;
    const news = (machine.newState as { inputs: Record<string, unknown> }).inputs;
    news.size = op === "replace" ? 100 : 50;
    news.name = op === "update" ? `box-${i}-renamed` : "box-1";
    steps.push({ ...(rename(script) as Step), op: "same" }, machine);
    summary[op] = (summary[op] ?? 0) + 1;
    summary.same += 1;
  }
  return JSON.stringify({ ...digest, steps, changeSummary: summary }, null, 4);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function wallMs(args: string[]): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function main(): void {
  const { values } = parseArgs({ options: { machines: { type: "string" }, runs: { type: "string" } } });
  const machines = Number(values.machines ?? 300);
  const runs = Number(values.runs ?? 7);
  const json = largePreview(machines);
  const resources = 2 * machines + 1;
  const inProcess: number[] = [];
  let markdown = "";
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    markdown = reviewPreview(json).markdown;
    inProcess.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-review-bench-")), "preview.json");
  fs.writeFileSync(file, json);
  const bin = path.join(REPO, "dist", "review", "cli.js");
  const binMs = median(Array.from({ length: runs }, () => wallMs([bin, file])));
  const nodeMs = median(Array.from({ length: runs }, () => wallMs(["-e", ""])));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  const rows = markdown.split("\n").filter((l) => l.startsWith("| `box-")).length;
  process.stdout.write(
    [
      `vmapi-review, ${resources} resources (${machines} machines, ${(json.length / 1e6).toFixed(1)} MB of preview JSON), median of ${runs} on ${os.cpus().length} CPUs (load ${os.loadavg()[0].toFixed(1)}):`,
      `  in-process reviewPreview: ${median(inProcess).toFixed(0)} ms (${rows} machine rows)`,
      `  the bin, end to end:      ${binMs.toFixed(0)} ms (node start and exit alone: ${nodeMs.toFixed(0)} ms)`,
      "",
    ].join("\n"),
  );
}

if (require.main === module) main();
