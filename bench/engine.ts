/**
 * The real engine as users time it: `pulumi preview` and `pulumi refresh` of N unchanged
 * resources, each kind side by side with the no-op baseline in the same run, and the bytes each
 * resource costs in state. Each command runs as its users type it: a Node program's through
 * `npm run pulumi` (tools/pulumi), so the wrapper's own start-up is in every such figure, ours and
 * the baseline's; the plugin route's YAML programs (`pluginMachine`, `goNoop`) with the `pulumi`
 * CLI alone, as a user of the release runs it (test/e2e/support/plainCli.ts: the wrapper would
 * install the checkout's plugin over the release, and refuses to).
 *
 * Stacks: test/e2e/programs/machines (auto-named Machines), test/e2e/programs/scripts and
 * bench/programs/noop (a shared no-op provider object), each `up`ped once first; and a fourth,
 * `noop40`: the same no-op carrying 40 properties with stack traces off while it registers (as
 * this package's resources register), the shape of a Machine without its provider's work, which
 * tells how much of a Machine's cost is its shape and how much our provider adds; and a fifth,
 * `noop40stack`: noop40 whose plugin also loads zod and axios at its first call, the stack this
 * package is built on (the floor of any provider of that stack and a Machine's shape); a sixth,
 * `pluginMachine`: the same Machines on the plugin route, a Pulumi YAML program of N Machines on
 * `pulumi-resource-vmapi` as users install it (the release's single executable, installed by
 * `pulumi plugin install --file` into the workspace's PULUMI_HOME; the program has no `plugins:`
 * section: bench/pluginProgram.ts), which carries no provider module per resource; and a seventh,
 * `goNoop`, the floor of the plugin route: the same YAML program on a native provider in Go that
 * does nothing, written the way Pulumi's own are (bench/goNoop); and an eighth, `goNoopMachine`, the
 * same Go no-op set to answer what the plugin answers (`vmapi:noopShape: machine`: its check names
 * the machine and defaults its state, its create gives the 25 outputs the plugin gives beside its
 * nulls, where the plain Go no-op gives 10), the engine's and the language host's floor for a
 * Machine's state as the plugin's users hold it. Then `rounds` rounds, each timing
 * a preview and a refresh of every kind in turn (interleaved, so a noisy moment of the shared machine
 * hits every kind alike); the median of the rounds is reported. `kinds` runs a subset (the no-op,
 * the ratios' base, always among them).
 */
import * as path from "node:path";
import { startE2eEmulator, PROGRAMS } from "../test/e2e/support/kit";
import type { RunningEmulator } from "../src/emulator";
import { EngineStack, EngineWorkspace, type StateResource } from "../test/e2e/support/engineStack";
import { PlainCli } from "../test/e2e/support/plainCli";
import { connectionConfig } from "../test/e2e/support/kit";
import { pluginMachinesProgram, type GeneratedProgram } from "./pluginProgram";
import { goNoopPluginDir, installReleasePlugin } from "./releasePlugin";
import {
  median,
  noopConfig,
  NOOP_PROGRAM,
  requestCounts,
  countsSince,
  totalOf,
  round,
  timed,
} from "./support";

export const ENGINE_KINDS = [
  "noop",
  "Machine",
  "pluginMachine",
  "goNoop",
  "goNoopMachine",
  "Script",
  "noop40",
  "noop40stack",
] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

export interface EngineRow {
  kind: EngineKind;
  resources: number;
  previewMs: number;
  refreshMs: number;
  /** Median preview of this kind / median preview of the no-op. */
  previewRatio: number;
  refreshRatio: number;
  /** API requests one preview and one refresh of all N made. */
  previewRequests: number;
  refreshRequests: number;
  /** Bytes of one resource in `stack export` (inputs, outputs and all), averaged. */
  stateBytes: number;
  /** Of which the serialized provider (`__provider`), which every check and diff carries too. */
  providerBytes: number;
}

export interface EngineResult {
  resources: number;
  rounds: number;
  rows: EngineRow[];
}

/** The template of the plugin route's Machines: test/e2e/programs/machines' default, the dynamic route's. */
const TEMPLATE = "tubsrv01";

/**
 * Each kind's program and the config it needs beyond the connection: `count` for the programs
 * that loop, nothing for the YAML programs written with N machines (`yaml`, their folders). `own`:
 * the stack gets an emulator of its own. The plugin's Machines do: an account holds one network
 * per region, of 245 machines, and a refresh lists the account's machines, so beside the dynamic
 * route's 200 in the same account both routes' listings would hold 400.
 */
function stacksOf(
  resources: number,
  yaml: { plugin: string; goNoop: string },
): Record<EngineKind, { program: string; config: Record<string, string>; own?: boolean; plain?: boolean }> {
  const count = { count: String(resources) };
  return {
    noop: { program: NOOP_PROGRAM, config: count },
    noop40: { program: NOOP_PROGRAM, config: { ...count, ...noopConfig({ props: 40 }) } },
    noop40stack: {
      program: NOOP_PROGRAM,
      config: { ...count, ...noopConfig({ props: 40, loadStack: true }) },
    },
    Machine: { program: path.join(PROGRAMS, "machines"), config: count },
    pluginMachine: { program: yaml.plugin, config: {}, own: true, plain: true },
    goNoop: { program: yaml.goNoop, config: {}, plain: true },
    goNoopMachine: { program: yaml.goNoop, config: { "vmapi:noopShape": "machine" }, plain: true },
    Script: { program: path.join(PROGRAMS, "scripts"), config: count },
  };
}

/** Runs the benchmark: N resources of each of `kinds`, `rounds` timed rounds. */
export async function engineBenchmark(
  resources: number,
  rounds: number,
  only: readonly EngineKind[] = ENGINE_KINDS,
): Promise<EngineResult> {
  const kinds = ENGINE_KINDS.filter((kind) => kind === "noop" || only.includes(kind));
  const shared = await startE2eEmulator();
  const emulators = new Map<EngineKind, RunningEmulator>();
  const workspace = new EngineWorkspace();
  const plain = PlainCli.create();
  const stacks = new Map<EngineKind, BenchStack>();
  // The release, installed where the plain CLI looks (its PULUMI_HOME).
  if (kinds.includes("pluginMachine")) installReleasePlugin(String(plain.env.PULUMI_HOME));
  const yaml: GeneratedProgram[] = [pluginMachinesProgram(resources, TEMPLATE)];
  if (kinds.includes("goNoop") || kinds.includes("goNoopMachine"))
    yaml.push(pluginMachinesProgram(resources, TEMPLATE, goNoopPluginDir()));
  const programs = stacksOf(resources, { plugin: yaml[0].dir, goNoop: yaml[1]?.dir ?? "" });
  try {
    for (const kind of kinds) emulators.set(kind, programs[kind].own ? await startE2eEmulator() : shared);
    for (const kind of kinds) {
      const emu = emulators.get(kind)!;
      const config = { ...connectionConfig(emu, emu.keys.individual), ...programs[kind].config };
      const stack = programs[kind].plain
        ? await plainStack(plain, programs[kind].program, config)
        : await EngineStack.create(workspace, programs[kind].program, config);
      stacks.set(kind, stack);
      await stack.ok(["up", "--yes", "--skip-preview"]);
    }
    const times = new Map<EngineKind, { preview: number[]; refresh: number[] }>(
      kinds.map((k) => [k, { preview: [], refresh: [] }]),
    );
    const requests = new Map<EngineKind, { preview: number; refresh: number }>();
    for (let round = 0; round < rounds; round++) {
      for (const kind of kinds) {
        const stack = stacks.get(kind)!;
        const emu = emulators.get(kind)!;
        const before = await requestCounts(emu.url);
        const preview = await timedOk(() => stack.ok(["preview", "--expect-no-changes"]));
        const afterPreview = await requestCounts(emu.url);
        const refresh = await timedOk(() => stack.ok(["refresh", "--yes", "--skip-preview"]));
        const afterRefresh = await requestCounts(emu.url);
        times.get(kind)!.preview.push(preview);
        times.get(kind)!.refresh.push(refresh);
        requests.set(kind, {
          preview: totalOf(countsSince(before, afterPreview)),
          refresh: totalOf(countsSince(afterPreview, afterRefresh)),
        });
      }
    }
    const rows: EngineRow[] = [];
    for (const kind of kinds) {
      const state = await stateCost(stacks.get(kind)!);
      const t = times.get(kind)!;
      rows.push({
        kind,
        resources,
        previewMs: Math.round(median(t.preview)),
        refreshMs: Math.round(median(t.refresh)),
        previewRatio: 0,
        refreshRatio: 0,
        previewRequests: requests.get(kind)!.preview,
        refreshRequests: requests.get(kind)!.refresh,
        ...state,
      });
    }
    const base = rows.find((r) => r.kind === "noop")!;
    for (const row of rows) {
      row.previewRatio = round(row.previewMs / base.previewMs);
      row.refreshRatio = round(row.refreshMs / base.refreshMs);
    }
    for (const stack of stacks.values()) await stack.ok(["destroy", "--yes", "--skip-preview"]);
    return { resources, rounds, rows };
  } finally {
    for (const stack of stacks.values()) await stack.remove();
    workspace.dispose();
    plain.dispose();
    for (const program of yaml) program.remove();
    for (const emu of new Set([shared, ...emulators.values()])) await emu.close();
  }
}

async function timedOk(run: () => Promise<unknown>): Promise<number> {
  return (await timed(run)).ms;
}

/** What the benchmark does with a stack, on either CLI. */
interface BenchStack {
  ok(args: string[]): Promise<unknown>;
  resources(): Promise<StateResource[]>;
  remove(): Promise<void>;
}

/** A stack of `program` on the plain CLI (its config as given), the commands EngineStack has. */
async function plainStack(
  plain: PlainCli,
  program: string,
  config: Record<string, string | { secret: string }>,
): Promise<BenchStack> {
  const stack = await plain.stack(program, config);
  const ok = (args: string[]) => plain.ok([...args, "--stack", stack.name], { cwd: program });
  return {
    ok,
    async resources() {
      const exported = await ok(["stack", "export"]);
      const resources =
        (JSON.parse(exported.stdout) as { deployment: { resources?: StateResource[] } }).deployment
          .resources ?? [];
      // As EngineStack.resources: the custom resources, not the providers.
      return resources.filter((r) => r.custom && !r.type.startsWith("pulumi:providers:"));
    },
    async remove() {
      await plain.run(["stack", "rm", "--yes", "--force", "--stack", stack.name], { cwd: program });
    },
  };
}

/** Average bytes per resource in the exported state, and of them the serialized provider. */
async function stateCost(stack: BenchStack): Promise<{ stateBytes: number; providerBytes: number }> {
  const resources: StateResource[] = await stack.resources();
  const bytes = (r: StateResource) => Buffer.byteLength(JSON.stringify(r));
  const provider = (r: StateResource) =>
    Buffer.byteLength(String((r as { inputs?: { __provider?: string } }).inputs?.__provider ?? ""));
  const average = (f: (r: StateResource) => number) =>
    Math.round(resources.reduce((sum, r) => sum + f(r), 0) / Math.max(1, resources.length));
  return { stateBytes: average(bytes), providerBytes: average(provider) };
}
