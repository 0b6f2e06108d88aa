/**
 * Fleets on the real CLI: hundreds of machines in one stack against an API that throttles, and a
 * thousand resources in one stack. Every command goes through `npm run pulumi` as typed, like
 * benchmarks 4 and 5.
 *
 * - **Under a limit**: `up --parallel 256` of N machines (test/e2e/programs/machines, the
 *   desktop template of benchmark 5) against an emulator that lets the key make RATE requests/s
 *   (burst RATE), at time scale UP_TIME_SCALE (provisioning D = 12 s, the provider's sleeps
 *   scaled alike). Reported: failed operations, the API requests per machine beyond its create
 *   (a create is two requests, its POST and the naming update that gives the settled machine its
 *   name; the creates that start together share one listing of the account's machines, which
 *   counts among the requests beyond the creates), and wall time / (D + 2N / RATE), the time the
 *   creates' requests alone would take at the limit and then one provisioning. The same again with `--fault-rate 0.2` on top (seeded): duplicates (two live
 *   machines of one resource), orphans (live machines the stack does not hold), and whether the
 *   one `up` converged (exit 0, every machine in the stack and live). The limit is lifted before
 *   each `destroy`, which is timed but not judged.
 * - **At scale**: `preview`, `up`, `refresh` and `destroy` of SCALE_RESOURCES Scripts (no
 *   provisioning, so the figures are the engine's and the plugin's, not the API's lifecycle), with
 *   the plugin's peak RSS and event-loop delay per command, read by bench/pluginProbe.cjs preloaded
 *   into the dynamic-provider process through NODE_OPTIONS. The same four commands of as many
 *   no-op resources (bench/programs/noop) side by side: the idiomatic no-op, and a no-op of a
 *   Script's shape (SCRIPT_SHAPE_PROPS more properties), and the same whose read waits
 *   WAITING_READ_MS on a timer as a read from an API waits (a read that waits keeps the engine's
 *   reads in flight in the plugin), which tell the SDK's own plugin's figures from what this
 *   package's provider adds. The four stacks are up at once and each command runs
 *   on each in turn; the refresh, seconds long and the command of the peak, REFRESH_ROUNDS times
 *   (its median reported).
 *
 * The refresh of 200 unchanged Machines (time vs the no-op, API requests) is benchmark 4's
 * (bench/engine.ts), not measured again here; its targets are judged in results.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator, type EmulatorStateDump } from "../test/kit/emulator";
import { EngineStack, EngineWorkspace } from "../test/e2e/support/engineStack";
import { connectionConfig, PROGRAMS, TIME_SCALE } from "../test/e2e/support/kit";
import { steps, type CliRun } from "../test/e2e/support/cli";
import { UP_TIME_SCALE } from "./engineUp";
import {
  control,
  countsSince,
  MACHINE_INPUTS,
  median,
  noopConfig,
  NOOP_PROGRAM,
  requestCounts,
  round,
  timed,
  totalOf,
} from "./support";

/** Requests per second the emulator lets the key make (and its burst). */
export const FLEET_RATE = 5;
/** The engine's `--parallel` of the limited rows: above every N, so no create waits for a slot. */
export const FLEET_PARALLEL = 256;
/** Probability of a random fault per API request in the faulty row. */
export const FLEET_FAULT_RATE = 0.2;
/** Provisioning of the desktop template at UP_TIME_SCALE, in wall time. */
const D_MS = 60_000 * UP_TIME_SCALE;
/**
 * The requests of one machine's create: its POST, and the update that gives the machine its name
 * once it has settled (it is made under a creating name: src/contract/unfinishedCreates.ts).
 * Before that naming update a create was its POST alone, and this was 1.
 */
export const CREATE_REQUESTS = 2;
const MACHINE_TYPE = "pulumi-nodejs:dynamic/vmapi:Machine";
const SCRIPT_TYPE = "pulumi-nodejs:dynamic/vmapi:Script";
const NOOP_TYPE = "pulumi-nodejs:dynamic/bench:Noop";
const PROBE = path.join(__dirname, "pluginProbe.cjs");
/**
 * Extra properties of the no-op of a Script's shape: 12 values in each of its inputs and outputs,
 * so a refresh's read and diff of one carry about as many property values as a Script's (15
 * outputs and 7 inputs, its read answering both): 72 against 73.
 */
export const SCRIPT_SHAPE_PROPS = 9;
/**
 * How long the waiting no-op's read waits: about what a read of a refresh waits for its listing or
 * its show on these 2 cores. Our provider's read made to wait this long and do nothing else peaked
 * as high as its real read (215 MB against 212, median of 5, 1,000 Scripts): the peak follows the
 * reads the engine keeps in flight while they wait, not what they do.
 */
export const WAITING_READ_MS = 50;
/**
 * How long one command may run before the CLI helper kills it (its default, 240 s, is below
 * what these commands take on 2 cores: a killed `up` exits 128 and would read as not converged).
 */
export const COMMAND_TIMEOUT_MS = 30 * 60_000;

/** Counts of one run: full, or `--quick`. */
export function fleetCounts(quick: boolean): { machines: number; resources: number } {
  return quick ? { machines: 20, resources: 100 } : { machines: 200, resources: 1000 };
}

/** One `up` of N machines under the limit. */
export interface LimitedUpRow {
  machines: number;
  faultRate: number;
  rate: number;
  parallel: number;
  /** Exit code of the one `up`. */
  exitCode: number;
  /** Steps the engine reported failed. */
  failedOperations: number;
  upMs: number;
  /** D + CREATE_REQUESTS × N / rate, ms: the creates' requests alone at the limit, then one provisioning. */
  idealMs: number;
  /** upMs / idealMs. */
  ratio: number;
  /** API requests sent (control endpoints left out), of which served and refused with 429 by the limit. */
  sent: number;
  served: number;
  refused: number;
  /** API requests sent per route. */
  byRoute: Record<string, number>;
  /**
   * (served − CREATE_REQUESTS × N) / N: what each machine cost beyond its create's POST and naming
   * update (the shared listings of the account's machines, waits, lookups).
   */
  beyondCreatePerMachine: number;
  /** D + served / rate, ms: the least time these many requests take at the limit. */
  requestFloorMs: number;
  /** Machines in the stack, and live in the emulator. */
  stackMachines: number;
  liveMachines: number;
  /** Resources with more than one live machine of their name (their extra machines counted). */
  duplicates: number;
  /** Live machines the stack does not hold. */
  orphans: number;
  /** The `up` exited 0 and every machine of the program is in the stack and live. */
  converged: boolean;
  /** `destroy --parallel 256` with the limit lifted (faults, if any, still on). */
  destroyMs: number;
}

/** The plugin's figures during one command (the highest of its plugin processes). */
export interface PluginFigures {
  peakRssMB: number;
  loopDelayMs: { mean: number; p50: number; p99: number; max: number };
}

/** One command of the stack at scale. */
export interface ScaleCommand {
  /** `refreshDefault`: the refresh at the engine's default `--parallel` (4 × cores); the others at FLEET_PARALLEL. */
  command: "preview" | "up" | "refresh" | "refreshDefault" | "destroy";
  ms: number;
  /** null: no probe file was found (the plugin did not start, or the probe failed). */
  plugin: PluginFigures | null;
  /** API requests the command made (absent in results before they were counted). */
  requests?: number;
  /** A command run several times (the refresh): each run's figures; ms and plugin are the median's. */
  samples?: Array<{ ms: number; peakRssMB: number | null }>;
}

/** The same commands of as many no-op resources: the SDK's own plugin, without our provider. */
export interface ScaleBaseline {
  /**
   * `noop`: the idiomatic no-op; `noopShape`: the no-op with a Script's shape; `noopShapeWaiting`:
   * the same, its read waiting `readMs` on a timer (absent in results before 2026-11-26, 11:00).
   */
  name: "noop" | "noopShape" | "noopShapeWaiting";
  /** Extra properties each resource carries (bench/programs/noop's `props`). */
  props: number;
  /** How long each read waits (0: it answers at once). */
  readMs?: number;
  commands: ScaleCommand[];
}

export interface FleetResult {
  timeScale: number;
  durationMs: number;
  limited: LimitedUpRow[];
  scale: {
    kind: "Script";
    resources: number;
    parallel: number;
    commands: ScaleCommand[];
    /** Absent in results written before 2026-11-26. */
    baselines?: ScaleBaseline[];
  };
}

/** Runs the benchmark: the limited `up` without and with faults, then the stack at scale. */
export async function fleetBenchmark(quick: boolean): Promise<FleetResult> {
  const { machines, resources } = fleetCounts(quick);
  const limited: LimitedUpRow[] = [];
  for (const faultRate of [0, FLEET_FAULT_RATE]) limited.push(await limitedUp(machines, faultRate));
  const scale = await atScale(resources);
  return { timeScale: UP_TIME_SCALE, durationMs: D_MS, limited, scale };
}

/** One `up` of `machines` under the limit, with `faultRate` faults; exported to rerun one row alone. */
export async function limitedUp(machines: number, faultRate: number): Promise<LimitedUpRow> {
  const emu = await startTestEmulator({
    clock: "real",
    timeScale: UP_TIME_SCALE,
    rateLimit: FLEET_RATE,
    rateBurst: FLEET_RATE,
    faultRate,
    faultSeed: 22,
  });
  const workspace = new EngineWorkspace();
  let stack: EngineStack | undefined;
  try {
    stack = await EngineStack.create(workspace, path.join(PROGRAMS, "machines"), {
      ...connectionConfig(emu, emu.keys.individual),
      "vmapi:pollScale": String(UP_TIME_SCALE),
      count: String(machines),
      templateId: MACHINE_INPUTS.templateId,
    });
    const before = await emu.control.state();
    const { value: run, ms: upMs } = await timed(() =>
      stack!.cli(["up", "--yes", "--skip-preview", "--parallel", String(FLEET_PARALLEL)], {
        events: true,
        timeoutMs: COMMAND_TIMEOUT_MS,
      }),
    );
    const after = await emu.control.state();
    const held = (await stack.resources()).filter((r) => r.type === MACHINE_TYPE);
    const live = after.machines.filter((m) => m.dtDestroyed === null);
    const fleet = fleetOf(held, live);
    const byRoute = apiRoutesSince(before, after);
    const sent = Object.values(byRoute).reduce((a, b) => a + b, 0);
    const served = after.rateLimit.served - before.rateLimit.served;
    const idealMs = D_MS + ((CREATE_REQUESTS * machines) / FLEET_RATE) * 1000;
    await control(emu.url, "rate-limit", { rate: null });
    const { ms: destroyMs } = await timed(() =>
      stack!.ok(["destroy", "--yes", "--skip-preview", "--parallel", String(FLEET_PARALLEL)], {
        timeoutMs: COMMAND_TIMEOUT_MS,
      }),
    );
    return {
      machines,
      faultRate,
      rate: FLEET_RATE,
      parallel: FLEET_PARALLEL,
      exitCode: run.code,
      failedOperations: failed(run),
      upMs: Math.round(upMs),
      idealMs,
      ratio: round(upMs / idealMs),
      sent,
      served,
      refused: after.rateLimit.refused - before.rateLimit.refused,
      byRoute,
      beyondCreatePerMachine: round((served - CREATE_REQUESTS * machines) / machines),
      requestFloorMs: Math.round(D_MS + (served / FLEET_RATE) * 1000),
      stackMachines: held.length,
      liveMachines: live.length,
      ...fleet,
      converged: run.code === 0 && held.length === machines && fleet.heldLive === machines,
      destroyMs: Math.round(destroyMs),
    };
  } finally {
    await stack?.remove();
    workspace.dispose();
    await emu.close();
  }
}

/** Duplicates and orphans of the emulator's live machines against the stack's. */
function fleetOf(
  held: Array<{ id?: string; outputs?: Record<string, unknown> }>,
  live: EmulatorStateDump["machines"],
): { duplicates: number; orphans: number; heldLive: number } {
  const heldIds = new Set(held.map((r) => r.id));
  const byName = new Map<string, number>();
  for (const m of live) byName.set(String(m.name), (byName.get(String(m.name)) ?? 0) + 1);
  return {
    duplicates: [...byName.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
    orphans: live.filter((m) => !heldIds.has(m.id)).length,
    heldLive: live.filter((m) => heldIds.has(m.id)).length,
  };
}

/** API requests per route between two dumps, control endpoints left out. */
function apiRoutesSince(before: EmulatorStateDump, after: EmulatorStateDump): Record<string, number> {
  const routes: Record<string, number> = {};
  for (const [route, n] of Object.entries(after.requestCounts)) {
    const d = n - (before.requestCounts[route] ?? 0);
    if (d > 0 && !route.includes("/_emulator")) routes[route] = d;
  }
  return routes;
}

function failed(run: CliRun): number {
  return steps(run).filter((s) => s.failed).length;
}

/**
 * Refreshes of each stack at scale, interleaved across the four stacks (Scripts and the three
 * no-ops: A B C D A B C D …): a refresh takes seconds, and its peak RSS follows V8's
 * collection timing, which moves by ±10 MB between runs of one stack; the median is reported.
 */
export const REFRESH_ROUNDS = 5;

/** One stack at scale, its plugin probed in every command. */
interface ProbedStack {
  run(command: ScaleCommand["command"]): Promise<Omit<ScaleCommand, "samples">>;
  close(): Promise<void>;
}

/**
 * N Scripts, and N of each no-op, each in a stack of its own and all four up at once, so the
 * commands run side by side: each command on every stack in turn, the refresh REFRESH_ROUNDS times
 * at FLEET_PARALLEL and as many at the engine's default `--parallel`: a refresh gains no time from
 * more reads at once (they share one listing), but each read the engine keeps in flight holds
 * its request in the plugin.
 */
async function atScale(resources: number): Promise<FleetResult["scale"]> {
  const kinds: Array<{ program: string; config: Record<string, string>; type: string }> = [
    { program: path.join(PROGRAMS, "scripts"), config: {}, type: SCRIPT_TYPE },
    ...BASELINES.map((b) => ({ program: NOOP_PROGRAM, config: noopConfig(b), type: NOOP_TYPE })),
  ];
  const stacks: ProbedStack[] = [];
  try {
    for (const kind of kinds) stacks.push(await openProbed(kind.program, kind.config, resources, kind.type));
    const commands: ScaleCommand[][] = kinds.map(() => []);
    const once = async (command: ScaleCommand["command"]) => {
      for (const [i, stack] of stacks.entries()) commands[i].push(await stack.run(command));
    };
    await once("preview");
    await once("up");
    for (const command of ["refresh", "refreshDefault"] as const) {
      const refreshes: Array<Array<Omit<ScaleCommand, "samples">>> = kinds.map(() => []);
      for (let round = 0; round < REFRESH_ROUNDS; round++)
        for (const [i, stack] of stacks.entries()) refreshes[i].push(await stack.run(command));
      for (const [i, runs] of refreshes.entries()) commands[i].push(medianCommand(runs));
    }
    await once("destroy");
    const [scripts, ...noops] = commands;
    return {
      kind: "Script",
      resources,
      parallel: FLEET_PARALLEL,
      commands: scripts,
      baselines: BASELINES.map((b, i) => ({ ...b, commands: noops[i] })),
    };
  } finally {
    for (const stack of stacks) await stack.close();
  }
}

/** The command of each of a stack's commands at scale: FLEET_PARALLEL but `refreshDefault`'s. */
export const SCALE_COMMAND_ARGS: Readonly<Record<ScaleCommand["command"], readonly string[]>> = {
  preview: ["preview", "--parallel", String(FLEET_PARALLEL)],
  up: ["up", "--yes", "--skip-preview", "--parallel", String(FLEET_PARALLEL)],
  refresh: ["refresh", "--yes", "--skip-preview", "--parallel", String(FLEET_PARALLEL)],
  refreshDefault: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview", "--parallel", String(FLEET_PARALLEL)],
};

/** The no-op stacks beside the Scripts, in the order they run. */
const BASELINES: ReadonlyArray<Omit<ScaleBaseline, "commands">> = [
  { name: "noop", props: 0 },
  { name: "noopShape", props: SCRIPT_SHAPE_PROPS },
  { name: "noopShapeWaiting", props: SCRIPT_SHAPE_PROPS, readMs: WAITING_READ_MS },
];

/** The median of runs of one command: its wall time, and the run of the median peak RSS. */
function medianCommand(runs: Array<Omit<ScaleCommand, "samples">>): ScaleCommand {
  const byRss = [...runs].sort((a, b) => (a.plugin?.peakRssMB ?? NaN) - (b.plugin?.peakRssMB ?? NaN));
  return {
    command: runs[0].command,
    ms: Math.round(median(runs.map((r) => r.ms))),
    plugin: byRss[Math.floor((byRss.length - 1) / 2)].plugin,
    requests: median(runs.map((r) => r.requests ?? NaN)),
    samples: runs.map((r) => ({ ms: r.ms, peakRssMB: r.plugin?.peakRssMB ?? null })),
  };
}

/** A stack of `resources` of `program` on an emulator of its own, the plugin probed in each command. */
async function openProbed(
  program: string,
  config: Record<string, string>,
  resources: number,
  type: string,
): Promise<ProbedStack> {
  const emu = await startTestEmulator({ clock: "real", timeScale: TIME_SCALE });
  const workspace = new EngineWorkspace();
  const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-probe-"));
  const env = {
    BENCH_PLUGIN_PROBE: probeDir,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${PROBE}`.trim(),
  };
  const close = async () => {
    await stack?.remove();
    workspace.dispose();
    fs.rmSync(probeDir, { recursive: true, force: true });
    await emu.close();
  };
  let stack: EngineStack | undefined;
  try {
    stack = await EngineStack.create(workspace, program, {
      ...connectionConfig(emu, emu.keys.individual),
      count: String(resources),
      ...config,
    });
  } catch (err) {
    await close();
    throw err;
  }
  const made = stack;
  return {
    close,
    async run(command) {
      for (const file of fs.readdirSync(probeDir)) fs.rmSync(path.join(probeDir, file));
      const before = await requestCounts(emu.url);
      const { ms } = await timed(() =>
        made.ok([...SCALE_COMMAND_ARGS[command]], { env, timeoutMs: COMMAND_TIMEOUT_MS }),
      );
      const requests = totalOf(countsSince(before, await requestCounts(emu.url)));
      const result = { command, ms: Math.round(ms), plugin: readProbes(probeDir), requests };
      if (command === "up") {
        const held = (await made.resources()).filter((r) => r.type === type);
        if (held.length !== resources) throw new Error(`up left ${held.length} of ${resources} ${type}`);
      }
      return result;
    },
  };
}

/** The highest figures of the plugin processes that wrote to `dir` (null: none did). */
function readProbes(dir: string): PluginFigures | null {
  const samples = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map(
      (f) =>
        JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as {
          maxRssKB: number;
          loopDelayMs: PluginFigures["loopDelayMs"];
        },
    );
  if (samples.length === 0) return null;
  const most = (f: (s: (typeof samples)[number]) => number) => Math.max(...samples.map(f));
  return {
    peakRssMB: round(most((s) => s.maxRssKB) / 1024, 1),
    loopDelayMs: {
      mean: most((s) => s.loopDelayMs.mean),
      p50: most((s) => s.loopDelayMs.p50),
      p99: most((s) => s.loopDelayMs.p99),
      max: most((s) => s.loopDelayMs.max),
    },
  };
}
