/**
 * `npm run bench` (builds first): the seven benchmarks one after the other, then
 * bench/results/latest.json, latest.md and latest.svg, and the targets table on stdout.
 *
 *   npm run bench                          everything (about 31 minutes on 2 cores)
 *   npm run bench -- --quick               fewer repetitions, 3 s load runs (results still written)
 *   npm run bench -- --only requests,headroom   a subset, printed only (latest.* untouched)
 *   npm run bench -- --only engine,start --kinds pluginMachine,goNoop
 *                                          benchmark 4 on some kinds only (the no-op, the ratios'
 *                                          base, always among them)
 *
 * Benchmarks: requests (1), convergence (2), headroom (3), engine (4: the real CLI's preview and
 * refresh of 200 resources, the Machines on both routes, dynamic and plugin, and state bytes), up
 * (5: the real CLI's `up` of 1, 10, 50 machines on both routes against its floor), fleet (6: 200 machines under a rate limit, with and without faults, and
 * 1,000 Scripts in one stack; `--quick`: 20 and 100), start (7: the plugin's first answer, as users
 * install it, beside the npm launcher's and a Go no-op's), instructions (8: the first answer and a
 * Machine's Check + Diff counted by callgrind, beside the Go no-op's; needs valgrind), pluginScripts
 * (9: 1,000 Scripts in one stack on the release, the plugin's peak RSS per command); see
 * docs/benchmarks.md. Benchmark 6 also
 * writes bench/results/fleet.json and fleet.md when run alone (`--only fleet`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import * as prettier from "prettier";
import { svgChart } from "./chart";
import { convergence } from "./convergence";
import { emulatorHeadroom } from "./emulatorHeadroom";
import { ENGINE_KINDS, engineBenchmark, type EngineKind } from "./engine";
import { engineUpBenchmark } from "./engineUp";
import { fleetBenchmark } from "./fleet";
import { pluginStartBenchmark } from "./pluginStart";
import { instructionsBenchmark } from "./instructions";
import { pluginScriptsBenchmark } from "./pluginScripts";
import { fleetReport, markdownReport, table, targetsTable, type FleetRun } from "./report";
import { requestsPerMachine } from "./requestsPerMachine";
import { judge, judgeConsole, judgeFleet, judgePlugin, type BenchResults } from "./results";

const RESULTS = path.join(__dirname, "results");
const NAMES = [
  "requests",
  "convergence",
  "headroom",
  "engine",
  "up",
  "fleet",
  "start",
  "instructions",
  "pluginScripts",
] as const;
/**
 * Timed rounds of the engine benchmark (a full run). Five since 2026-12-07: the medians of three
 * moved by a fifth between back-to-back runs on this shared machine (docs/benchmarks.md).
 */
const ENGINE_ROUNDS = 5;

/** Resources per stack in the engine benchmark. */
const ENGINE_RESOURCES = 200;
type Name = (typeof NAMES)[number];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { quick: { type: "boolean" }, only: { type: "string" }, kinds: { type: "string" } },
  });
  const only = values.only?.split(",").map((s) => s.trim()) as Name[] | undefined;
  const unknown = only?.filter((n) => !NAMES.includes(n));
  if (unknown?.length) throw new Error(`--only: unknown ${unknown.join(", ")} (one of ${NAMES.join(", ")})`);
  const kinds = (values.kinds?.split(",").map((s) => s.trim()) ?? [...ENGINE_KINDS]) as EngineKind[];
  const unknownKinds = kinds.filter((k) => !ENGINE_KINDS.includes(k));
  if (unknownKinds.length)
    throw new Error(`--kinds: unknown ${unknownKinds.join(", ")} (of ${ENGINE_KINDS.join(", ")})`);
  if (values.kinds !== undefined && !only)
    throw new Error("--kinds: only with --only (a full run takes every kind)");
  const quick = values.quick === true;
  const wanted = (name: Name) => !only || only.includes(name);
  const startedAt = new Date();
  const host = {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    loadAverage: os.loadavg(),
  };
  const partial: Partial<BenchResults> = {};
  if (wanted("requests")) partial.requests = await step("1. requests per machine", requestsPerMachine);
  if (wanted("convergence"))
    partial.convergence = await step("2. convergence", () => convergence(quick ? 1 : 3));
  if (wanted("headroom"))
    partial.headroom = await step("3. emulator headroom", () => emulatorHeadroom(quick ? 3 : 10));
  if (wanted("engine"))
    partial.engine = await step("4. real engine", () =>
      engineBenchmark(ENGINE_RESOURCES, quick ? 1 : ENGINE_ROUNDS, kinds),
    );
  if (wanted("up")) partial.up = await step("5. pulumi up", engineUpBenchmark);
  if (wanted("fleet")) partial.fleet = await step("6. fleets", () => fleetBenchmark(quick));
  if (wanted("start"))
    partial.start = await step("7. the plugin's start", () => pluginStartBenchmark(quick ? 5 : 21));
  if (wanted("instructions"))
    partial.instructions = await step("8. instructions", () => instructionsBenchmark(quick ? 50 : 200));
  if (wanted("pluginScripts"))
    partial.pluginScripts = await step("9. Scripts on the plugin", () =>
      pluginScriptsBenchmark(quick ? 100 : 1000),
    );
  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  if (only) {
    process.stdout.write(`${JSON.stringify(partial, null, 2)}\n`);
    const targets = [...judgePlugin(partial), ...judgeFleet(partial), ...judgeConsole(partial)];
    if (partial.fleet)
      await writeFleet({ startedAt: startedAt.toISOString(), seconds, host, quick, ...partial });
    if (targets.length > 0)
      process.stdout.write(
        `\n${table(
          ["target", "goal", "measured", "met"],
          targets.map((t) => [t.name, t.goal, t.value, t.met ? "yes" : "**no**"]),
        )}\n`,
      );
    return;
  }
  const measured = { startedAt: startedAt.toISOString(), seconds, host, ...partial } as Omit<
    BenchResults,
    "targets"
  >;
  const results: BenchResults = { ...measured, targets: judge(measured) };
  await write(results, quick);
  process.stdout.write(
    `\n${targetsTable(results)}\n\nFull tables: bench/results/latest.md (${Math.round(seconds)} s)\n`,
  );
}

async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  process.stderr.write(`${name} ...`);
  const value = await run();
  process.stderr.write(` ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return value;
}

/** Writes a file formatted as `prettier --check` expects. */
async function format(file: string, text: string): Promise<void> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
}

/** Writes the three files, JSON and Markdown formatted as `prettier --check` expects. */
async function write(results: BenchResults, quick: boolean): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  await format(path.join(RESULTS, "latest.json"), JSON.stringify(results, null, 2));
  await format(path.join(RESULTS, "latest.md"), markdownReport(results));
  fs.writeFileSync(path.join(RESULTS, "latest.svg"), svgChart(results));
  await writeFleet({ ...results, quick });
}

/** bench/results/fleet.json and fleet.md: benchmark 6 alone (with benchmark 4's refresh targets if it ran). */
async function writeFleet(run: FleetRun): Promise<void> {
  if (!run.fleet) return;
  fs.mkdirSync(RESULTS, { recursive: true });
  const { startedAt, seconds, host, quick, fleet } = run;
  const targets = judgeFleet(run);
  await format(
    path.join(RESULTS, "fleet.json"),
    JSON.stringify({ startedAt, seconds, host, quick, fleet, targets }, null, 2),
  );
  await format(path.join(RESULTS, "fleet.md"), fleetReport(run));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
