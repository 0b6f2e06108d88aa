/**
 * Benchmark 7: how soon the plugin answers once the engine starts it. From the exec to the port
 * printed on stdout, and to the answer of the first request the engine makes (`GetPluginInfo`),
 * for three plugins side by side, interleaved in every round:
 * - `release`: the plugin as users install it, the release's single executable
 *   (`npm run plugin:dist`) installed by `pulumi plugin install --file`, run with a PATH that holds
 *   no node;
 * - `npmLauncher`: the npm package's launcher (plugin/pulumi-resource-vmapi: the first `node` on
 *   PATH on dist/provider/native/main.js), as a TypeScript user's YAML program names it;
 * - `goNoop`: the floor, a native provider in Go that does nothing (bench/goNoop), started alike.
 * Each process is killed once it answered. The median of the rounds is reported.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { askPluginInfo, printedPort } from "./pluginHandshake";
import { goNoopPluginDir, installReleasePlugin } from "./releasePlugin";
import { median, round } from "./support";

export const START_KINDS = ["release", "npmLauncher", "goNoop"] as const;
export type StartKind = (typeof START_KINDS)[number];

export interface StartRow {
  kind: StartKind;
  /** Median ms from the exec to the port printed. */
  portMs: number;
  /** Median ms from the exec to GetPluginInfo's answer. */
  firstAnswerMs: number;
  /** firstAnswerMs / the Go no-op's. */
  ratio: number;
  /** Every round's firstAnswerMs, in order. */
  samples: number[];
}

export interface StartResult {
  rounds: number;
  rows: StartRow[];
}

const REPO = path.resolve(__dirname, "..");
const NO_NODE_PATH = "/nonexistent";

/** How each kind is started: the executable, its arguments, its PATH. */
function commands(release: string, goNoop: string): Record<StartKind, { file: string; pathVar: string }> {
  return {
    release: { file: path.join(release, "pulumi-resource-vmapi"), pathVar: NO_NODE_PATH },
    npmLauncher: {
      file: path.join(REPO, "plugin", "pulumi-resource-vmapi"),
      pathVar: `${path.dirname(process.execPath)}${path.delimiter}/usr/bin${path.delimiter}/bin`,
    },
    goNoop: { file: path.join(goNoop, "pulumi-resource-vmapi"), pathVar: NO_NODE_PATH },
  };
}

/** One start: ms to the port, ms to the first answer. */
async function startOnce(file: string, pathVar: string): Promise<{ portMs: number; firstAnswerMs: number }> {
  const started = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
  const child = spawn(file, [], { env: { PATH: pathVar }, stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await printedPort(child, file);
    const portMs = ms();
    await askPluginInfo(port);
    const firstAnswerMs = ms();
    return { portMs, firstAnswerMs };
  } finally {
    child.kill("SIGKILL");
  }
}

/** Runs the benchmark: one warm-up start of each (the page cache), then `rounds` interleaved rounds. */
export async function pluginStartBenchmark(rounds: number): Promise<StartResult> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-bench-start-"));
  try {
    const started = commands(installReleasePlugin(home), goNoopPluginDir());
    const samples = new Map<StartKind, Array<{ portMs: number; firstAnswerMs: number }>>(
      START_KINDS.map((k) => [k, []]),
    );
    for (const kind of START_KINDS) await startOnce(started[kind].file, started[kind].pathVar);
    for (let i = 0; i < rounds; i++) {
      for (const kind of START_KINDS) {
        samples.get(kind)!.push(await startOnce(started[kind].file, started[kind].pathVar));
      }
    }
    const rows = START_KINDS.map((kind) => {
      const runs = samples.get(kind)!;
      return {
        kind,
        portMs: round(median(runs.map((r) => r.portMs)), 1),
        firstAnswerMs: round(median(runs.map((r) => r.firstAnswerMs)), 1),
        ratio: 0,
        samples: runs.map((r) => round(r.firstAnswerMs, 1)),
      };
    });
    const floor = rows.find((r) => r.kind === "goNoop")!.firstAnswerMs;
    for (const row of rows) row.ratio = round(row.firstAnswerMs / floor);
    return { rounds, rows };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
