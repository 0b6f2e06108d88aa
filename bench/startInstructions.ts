/**
 * Benchmark 7's start counted in instructions, which do not depend on the shared machine's load:
 * each plugin runs under valgrind's callgrind from its exec until it answered the engine's first
 * request (`GetPluginInfo`), then gets SIGTERM; callgrind counts what every thread executed.
 *
 *   node -r ts-node/register/transpile-only bench/startInstructions.ts [--kinds release,goNoop,node] [--through configure]
 *
 * - `release`: the release's single executable (`npm run plugin:dist`, built when stale), unpacked;
 * - `goNoop`: the floor, the Go no-op provider (bench/goNoop);
 * - `node`: bare Node, `node -e 0` on the same Node build the executable carries.
 *
 * With `--through configure`, the release is counted until it answered what the engine asks
 * before a stack's first resource (`GetPluginInfo`, `GetSchema`, `CheckConfig`, `Configure`: the
 * provider loaded), the other kinds as before.
 *
 * The main thread is what the first answer waits on; Node's other threads (its platform's
 * workers, and the root-certificate parse that loading `tls` starts) run beside it. Needs
 * valgrind on PATH. One run each: the counts repeat within about 3 %.
 */
import { spawn, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { PluginClient } from "../tools/plugin/pluginClient";
import { releaseAsset } from "../tools/plugin/releaseAssets";
import { askPluginInfo, printedPort } from "./pluginHandshake";
import { goNoopPluginDir } from "./releasePlugin";

const KINDS = ["release", "goNoop", "node"] as const;
type Kind = (typeof KINDS)[number];

/** Instructions (millions) of one run: the main thread's and every thread's. */
export interface StartCount {
  kind: Kind;
  mainM: number;
  allM: number;
}

/**
 * Runs `file` under callgrind and gives the instructions (millions) of each thread, the main
 * thread's first. A plugin (`drive` given) is driven on its printed port, then stopped; anything
 * else runs to its end. `env`: variables beside PATH.
 */
export async function counted(
  file: string,
  args: string[],
  drive: ((port: string) => Promise<void>) | undefined,
  work: string,
  env: NodeJS.ProcessEnv = {},
): Promise<number[]> {
  const out = path.join(work, `cg-${path.basename(file)}-${Date.now()}`);
  fs.mkdirSync(out);
  const child = spawn(
    "valgrind",
    ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${out}/cg.out`, file, ...args],
    // Go's asynchronous preemption signals trip callgrind (an assertion); the count is the same without.
    {
      env: { PATH: process.env.PATH, GODEBUG: "asyncpreemptoff=1", ...env },
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (drive) {
    await drive(await printedPort(child, file));
    child.kill("SIGTERM");
  }
  await exited;
  // One file per thread, cg.out-01 the main thread's.
  const totals = fs
    .readdirSync(out)
    .filter((name) => /-\d+$/.test(name))
    .sort()
    .map((name) => /^(?:summary|totals): (\d+)/m.exec(fs.readFileSync(path.join(out, name), "utf8")))
    .map((match) => (match ? Number(match[1]) / 1e6 : 0));
  return totals;
}

/** The release's executable, unpacked from its tarball into `work`. */
export function releaseExecutable(work: string): string {
  const dir = path.join(work, "release");
  fs.mkdirSync(dir);
  execFileSync("tar", ["-xzf", releaseAsset(), "-C", dir]);
  return path.join(dir, "pulumi-resource-vmapi");
}

/** How far a plugin is driven: its first answer, or through `Configure` (the provider loaded). */
export type Through = "pluginInfo" | "configure";

/** Asks what the engine asks before a stack's first resource, through `Configure`. */
async function askThroughConfigure(port: string): Promise<void> {
  const client = new PluginClient(port, 120_000);
  try {
    await client.throughConfigure();
  } finally {
    client.close();
  }
}

/** The first answer of each of `kinds` (the release's through `through`), counted. */
export async function startInstructions(
  kinds: readonly Kind[] = KINDS,
  through: Through = "pluginInfo",
): Promise<StartCount[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-start-count-"));
  try {
    const rows: StartCount[] = [];
    for (const kind of kinds) {
      const threads =
        kind === "release"
          ? await counted(
              releaseExecutable(work),
              [],
              through === "configure" ? askThroughConfigure : askPluginInfo,
              work,
            )
          : kind === "goNoop"
            ? await counted(path.join(goNoopPluginDir(), "pulumi-resource-vmapi"), [], askPluginInfo, work)
            : await counted(process.execPath, ["-e", "0"], undefined, work);
      const round = (m: number) => Math.round(m * 10) / 10;
      rows.push({ kind, mainM: round(threads[0] ?? 0), allM: round(threads.reduce((a, b) => a + b, 0)) });
    }
    return rows;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { kinds: { type: "string" }, through: { type: "string" } } });
  const kinds = (values.kinds?.split(",") ?? [...KINDS]) as Kind[];
  if (values.through !== undefined && values.through !== "configure")
    throw new Error(`--through: "configure" or nothing (got ${JSON.stringify(values.through)})`);
  const through = values.through === "configure" ? "configure" : "pluginInfo";
  process.stdout.write(`${JSON.stringify(await startInstructions(kinds, through), null, 2)}\n`);
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`startInstructions: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
