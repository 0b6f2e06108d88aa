/**
 * `pulumi up` as users time it: N = 1, 10, 50 machines created by the real CLI (through
 * `npm run pulumi`, as typed) against an emulator whose provisioning lasts D, wall time / D.
 *
 * D is 60 s of emulator time at time scale 0.2: 12 s of wall time, and the provider's sleeps are
 * scaled alike (`vmapi:pollScale`), so it polls as it would at D = 60 s. Side by side, in the same
 * run, the floor: the same `up` of N no-op dynamic resources whose create waits exactly D and
 * nothing else (bench/programs/noop with `createMs`), a provider that knows to the millisecond
 * when its resource is ready. What the floor costs above D is the engine's own (CLI start, the
 * language server, registration, the plugin, state writes); what the machines cost above the
 * floor is ours (creates, polls, the first poll's timing, request latency). And the comparison
 * row: the same N machines created through the client and then polled at once and every 5 s
 * (bench/programs/fixedpoll), as the retired client's `waitfor` did. And the plugin route: the same N
 * Machines in a Pulumi YAML program on `pulumi-resource-vmapi` (bench/pluginProgram.ts), judged
 * against the same floor: no floor of the plugin route exists (a no-op native plugin), and the
 * dynamic no-op's is the nearest (module comment of bench/results.ts).
 *
 * These rows run with `--parallel 64`. The engine's default is 4 × the cores (8 on 2 cores,
 * PULUMI_PARALLEL overrides it), and every create holds one of those slots while its machine
 * provisions, so N machines provision in ceil(N / parallel) waves: the last row creates three
 * waves' worth (24 machines on 2 cores) at the default.
 */
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator } from "../test/kit/emulator";
import { EngineStack, EngineWorkspace } from "../test/e2e/support/engineStack";
import { connectionConfig, PROGRAMS } from "../test/e2e/support/kit";
import { PLUGIN_DIR, pluginMachinesProgram, type GeneratedProgram } from "./pluginProgram";
import {
  countsSince,
  MACHINE_INPUTS,
  noopConfig,
  NOOP_PROGRAM,
  requestCounts,
  round,
  timed,
  totalOf,
} from "./support";

/** Emulator time scale of this benchmark: 60 s of provisioning take 12 s. */
export const UP_TIME_SCALE = 0.2;
/** Provisioning of MACHINE_INPUTS' desktop template (no serviceready step), in wall time. */
const D_MS = 60_000 * UP_TIME_SCALE;
export const UP_SIZES = [1, 10, 50] as const;
/** `--parallel` of the rows with a floor: above every N, so no create waits for a slot. */
export const UP_PARALLEL = 64;
/** The engine's own default `--parallel` on this machine (GOMAXPROCS × 4). */
export const DEFAULT_PARALLEL = os.cpus().length * 4;
/** Machines of the default-parallel row: three waves. */
export const DEFAULT_PARALLEL_MACHINES = DEFAULT_PARALLEL * 3;

export interface EngineUpRow {
  machines: number;
  /** The engine's `--parallel`: UP_PARALLEL, or the default (DEFAULT_PARALLEL). */
  parallel: number;
  /** `pulumi up` of N machines, wall ms, and / D. */
  upMs: number;
  ratio: number;
  /** `pulumi up` of N no-ops whose create waits D: the engine's floor, and / D (null: not run). */
  floorMs: number | null;
  floorRatio: number | null;
  /** Machines' up / the floor's up: what the provider adds to an ideal one. */
  overFloor: number | null;
  /** `pulumi up` of N machines polled every 5 s (the retired client's wait), and / D (null: not run). */
  fixedMs: number | null;
  fixedRatio: number | null;
  /** API requests of the fixed-poll up, per machine (null: not run). */
  fixedRequestsPerMachine: number | null;
  /** API requests of the machines' up, per machine. */
  requestsPerMachine: number;
  /**
   * The same `up` of N Machines on the plugin (a Pulumi YAML program), wall ms, / D, / the floor,
   * and its API requests per machine (null: not run; absent in results before the plugin's rows).
   */
  pluginMs?: number | null;
  pluginRatio?: number | null;
  pluginOverFloor?: number | null;
  pluginRequestsPerMachine?: number | null;
  /** `pulumi destroy` of the N machines, wall ms. */
  destroyMs: number;
}

const UP = ["up", "--yes", "--skip-preview"];
const DESTROY = ["destroy", "--yes", "--skip-preview"];

export interface EngineUpResult {
  timeScale: number;
  durationMs: number;
  rows: EngineUpRow[];
}

/** Runs the benchmark: for each N, the machines', the fixed-poll and the floor's up and destroy; then three waves at the default. */
export async function engineUpBenchmark(): Promise<EngineUpResult> {
  const emu = await startTestEmulator({ clock: "real", timeScale: UP_TIME_SCALE });
  const workspace = new EngineWorkspace();
  const stacks: EngineStack[] = [];
  const generated: GeneratedProgram[] = [];
  const stack = async (program: string, config: Record<string, string>) => {
    const made = await EngineStack.create(workspace, program, {
      ...connectionConfig(emu, emu.keys.individual),
      "vmapi:pollScale": String(UP_TIME_SCALE),
      ...config,
    });
    stacks.push(made);
    return made;
  };
  /**
   * The machines' up and destroy at `parallel`; requests of the up counted by the emulator.
   * `config`: the programs that loop are told N and the template; the YAML program was written with them.
   */
  const machinesUp = async (
    machines: number,
    parallel: number,
    program = path.join(PROGRAMS, "machines"),
    config: Record<string, string> = { count: String(machines), templateId: MACHINE_INPUTS.templateId },
  ) => {
    const real = await stack(program, config);
    const before = await requestCounts(emu.url);
    const { ms } = await timed(() => real.ok([...UP, "--parallel", String(parallel)]));
    const requests = totalOf(countsSince(before, await requestCounts(emu.url)));
    const { ms: destroyMs } = await timed(() => real.ok(DESTROY));
    return { ms, requestsPerMachine: round(requests / machines, 1), destroyMs: Math.round(destroyMs) };
  };
  try {
    const rows: EngineUpRow[] = [];
    for (const machines of UP_SIZES) {
      const up = await machinesUp(machines, UP_PARALLEL);
      const yaml = pluginMachinesProgram(machines, MACHINE_INPUTS.templateId, PLUGIN_DIR);
      generated.push(yaml);
      const plugin = await machinesUp(machines, UP_PARALLEL, yaml.dir, {});
      const fixed = await machinesUp(machines, UP_PARALLEL, path.join(__dirname, "programs", "fixedpoll"));
      const floor = await stack(NOOP_PROGRAM, { count: String(machines), ...noopConfig({ createMs: D_MS }) });
      const { ms: floorMs } = await timed(() => floor.ok([...UP, "--parallel", String(UP_PARALLEL)]));
      await floor.ok(DESTROY);
      rows.push({
        machines,
        parallel: UP_PARALLEL,
        upMs: Math.round(up.ms),
        ratio: round(up.ms / D_MS),
        floorMs: Math.round(floorMs),
        floorRatio: round(floorMs / D_MS),
        overFloor: round(up.ms / floorMs),
        fixedMs: Math.round(fixed.ms),
        fixedRatio: round(fixed.ms / D_MS),
        fixedRequestsPerMachine: fixed.requestsPerMachine,
        requestsPerMachine: up.requestsPerMachine,
        pluginMs: Math.round(plugin.ms),
        pluginRatio: round(plugin.ms / D_MS),
        pluginOverFloor: round(plugin.ms / floorMs),
        pluginRequestsPerMachine: plugin.requestsPerMachine,
        destroyMs: up.destroyMs,
      });
    }
    const atDefault = await machinesUp(DEFAULT_PARALLEL_MACHINES, DEFAULT_PARALLEL);
    rows.push({
      machines: DEFAULT_PARALLEL_MACHINES,
      parallel: DEFAULT_PARALLEL,
      upMs: Math.round(atDefault.ms),
      ratio: round(atDefault.ms / D_MS),
      floorMs: null,
      floorRatio: null,
      overFloor: null,
      fixedMs: null,
      fixedRatio: null,
      fixedRequestsPerMachine: null,
      requestsPerMachine: atDefault.requestsPerMachine,
      pluginMs: null,
      pluginRatio: null,
      pluginOverFloor: null,
      pluginRequestsPerMachine: null,
      destroyMs: atDefault.destroyMs,
    });
    return { timeScale: UP_TIME_SCALE, durationMs: D_MS, rows };
  } finally {
    for (const made of stacks) await made.remove();
    for (const program of generated) program.remove();
    workspace.dispose();
    await emu.close();
  }
}
