/**
 * Benchmark 4, a stand-in for preview overhead (which needs the engine): Check then Diff of 200
 * unchanged resources, one after the other, through the real dynamic-provider plugin over gRPC
 * (tools/engine/providerHarness.ts), for our Machine and Script providers and for a trivial
 * dynamic provider that does nothing and holds the same inputs and outputs. Warm (a plugin that
 * has served the stack before) and cold (a fresh plugin, as every `pulumi preview` starts one).
 * Also the size of each serialized `__provider`, and the template lookups Machine's check makes,
 * with the API on loopback and 20 ms away. Fixtures (trivial provider, plugin directory) are in
 * pluginFixtures.ts.
 */
import type { RunningEmulator } from "../src/emulator";
import { providerStub, type ResourceKind } from "../src/provider/stub";
import { serializeProviderLikeEngine, type ProviderPlugin } from "../tools/engine/providerHarness";
import {
  asTrivial,
  hold,
  programDirectory,
  trivialOfSize,
  trivialProvider,
  withPlugin,
  type Held,
} from "./pluginFixtures";
import { control, countsSince, median, requestCounts, round, startManualEmulator, totalOf } from "./support";

const RESOURCES = 200;
const API_LATENCY_MS = 20;

/** Check + diff of 200 resources (warm: the median resource × 200; cold: whole rounds). */
export interface CheckDiffRow {
  kind: string;
  /** "warm": the plugin has served this stack before; "cold": a fresh plugin, as each `pulumi preview` starts. */
  plugin: "warm" | "cold";
  totalMs: number;
  checkMs: number;
  diffMs: number;
  /** Against the trivial provider holding the same inputs and outputs, same plugin state. */
  ratio: number;
  /** API requests made by the 200 checks and diffs. */
  apiRequests: number;
}

export interface CheckDiffResult {
  resources: number;
  repetitions: number;
  apiLatencyMs: number;
  rows: CheckDiffRow[];
  /** Bytes of the serialized `__provider` text. */
  providerBytes: Record<string, number>;
}

/** Runs benchmark 4 (about a minute: ten plugin starts and `repetitions` interleaved warm passes). */
export async function checkDiff(repetitions = 5): Promise<CheckDiffResult> {
  const emu = await startManualEmulator();
  const program = programDirectory();
  try {
    const trivialText = await serializeProviderLikeEngine(trivialProvider);
    const stubBytes = Buffer.byteLength(await serializeProviderLikeEngine(providerStub("Machine")));
    const paddedText = await serializeProviderLikeEngine(await trivialOfSize(stubBytes));
    const warm = await withPlugin(emu, program.cwd, async (plugin) => {
      const held = {
        Machine: await hold(plugin, emu, "Machine", RESOURCES),
        Script: await hold(plugin, emu, "Script", RESOURCES),
      };
      // Each variant with the trivial provider it is compared with (same inputs and outputs).
      const variants: [string, Held[], string][] = [
        ["Machine", held.Machine, TRIVIAL_MACHINE],
        [TRIVIAL_MACHINE, asTrivial(held.Machine, trivialText), TRIVIAL_MACHINE],
        [TRIVIAL_PADDED, asTrivial(held.Machine, paddedText), TRIVIAL_MACHINE],
        ["Machine vs same-size trivial", held.Machine, TRIVIAL_PADDED],
        ["Script", held.Script, TRIVIAL_SCRIPT],
        [TRIVIAL_SCRIPT, asTrivial(held.Script, trivialText), TRIVIAL_SCRIPT],
      ];
      // One counted round each (and warm-up), then timed passes that interleave the variants.
      const requests: number[] = [];
      for (const [, resources] of variants)
        requests.push((await previewRound(plugin, emu, resources)).requests);
      const passes = await interleaved(
        plugin,
        variants.map(([, resources]) => resources),
        repetitions,
      );
      const runs = Object.fromEntries(variants.map(([name], i) => [name, passes[i]]));
      return {
        machines: held.Machine,
        rows: variants.map(([name, , floor], i) => ({
          ...row(name, "warm", runs[name], runs[floor]),
          apiRequests: requests[i],
        })),
      };
    });
    // Cold: a fresh plugin process per round, so its template cache and module cache are empty.
    const machines = warm.machines;
    const cold = { trivial: [] as Sample[], machine: [] as Sample[], remote: [] as Sample[] };
    const coldRounds = Math.min(3, repetitions);
    for (let r = 0; r < coldRounds; r++) {
      cold.trivial.push(
        await withPlugin(emu, program.cwd, (p) => previewRound(p, emu, asTrivial(machines, trivialText))),
      );
      cold.machine.push(await withPlugin(emu, program.cwd, (p) => previewRound(p, emu, machines)));
    }
    const slowTemplates = { route: "/templates/getTemplates", latencyMs: API_LATENCY_MS, times: RESOURCES };
    await control(emu.url, "faults", { rules: [slowTemplates] });
    for (let r = 0; r < coldRounds; r++) {
      cold.remote.push(await withPlugin(emu, program.cwd, (p) => previewRound(p, emu, machines)));
    }
    const rows = [
      ...warm.rows,
      row("Machine", "cold", cold.machine, cold.trivial),
      row(`Machine, templates ${API_LATENCY_MS} ms away`, "cold", cold.remote, cold.trivial),
      row(TRIVIAL_MACHINE, "cold", cold.trivial, cold.trivial),
    ];
    const providerBytes = {
      ...(await providerSizes(trivialText)),
      trivialPadded: Buffer.byteLength(paddedText),
    };
    return { resources: RESOURCES, repetitions, apiLatencyMs: API_LATENCY_MS, rows, providerBytes };
  } finally {
    program.remove();
    await emu.close();
  }
}

const TRIVIAL_MACHINE = "trivial, Machine payload";
const TRIVIAL_SCRIPT = "trivial, Script payload";
const TRIVIAL_PADDED = "trivial padded to our size, Machine payload";

/** One round: each resource's check and diff time, in order. */
interface Sample {
  checkMs: number[];
  diffMs: number[];
  requests: number;
}

/** Check + diff of every held resource, in order, as `pulumi preview` of an unchanged stack. */
async function previewRound(plugin: ProviderPlugin, emu: RunningEmulator, held: Held[]): Promise<Sample> {
  const before = await requestCounts(emu.url);
  const sample = emptySample();
  for (const r of held) await checkAndDiff(plugin, r, sample);
  sample.requests = totalOf(countsSince(before, await requestCounts(emu.url)));
  return sample;
}

/**
 * `passes` passes over the resources in which every variant does resource i before any does
 * i + 1, starting with a different variant each time: a noisy moment of this shared machine
 * then falls on every variant alike. Returns samples per variant, per pass.
 */
async function interleaved(plugin: ProviderPlugin, variants: Held[][], passes: number): Promise<Sample[][]> {
  const samples = variants.map(() => Array.from({ length: passes }, emptySample));
  for (let pass = 0; pass < passes; pass++) {
    for (let i = 0; i < RESOURCES; i++) {
      for (let k = 0; k < variants.length; k++) {
        const v = (i + k) % variants.length;
        await checkAndDiff(plugin, variants[v][i], samples[v][pass]);
      }
    }
  }
  return samples;
}

/** Check then diff of one unchanged resource, as `pulumi preview` does; times added to `into`. */
async function checkAndDiff(plugin: ProviderPlugin, r: Held, into: Sample): Promise<void> {
  const t0 = performance.now();
  const checked = await plugin.check(r.urn, r.inputs, r.news, { preview: true });
  const t1 = performance.now();
  const diff = await plugin.diff(r.id, r.urn, r.outs, checked.inputs, { oldInputs: r.inputs, preview: true });
  const t2 = performance.now();
  if (checked.failures.length > 0 || diff.changes) throw new Error(`${r.urn}: not unchanged`);
  into.checkMs.push(t1 - t0);
  into.diffMs.push(t2 - t1);
}

function emptySample(): Sample {
  return { checkMs: [], diffMs: [], requests: 0 };
}

/**
 * Warm rows are robust to a busy machine: the median time of one resource over every pass, × 200,
 * and the ratio of medians. Cold rows keep whole-round sums (they are about one-time costs), with
 * the median of per-round ratios.
 */
function row(kind: string, plugin: "warm" | "cold", samples: Sample[], floor: Sample[]): CheckDiffRow {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const totals = (s: Sample) => s.checkMs.map((c, i) => c + s.diffMs[i]);
  const typical = (pick: (s: Sample) => number[], list = samples) => median(list.flatMap(pick)) * RESOURCES;
  const whole = (pick: (s: Sample) => number[], list = samples) => median(list.map((s) => sum(pick(s))));
  const figure = plugin === "warm" ? typical : whole;
  const ratio =
    plugin === "warm"
      ? typical(totals) / typical(totals, floor)
      : median(samples.map((s, i) => sum(totals(s)) / sum(totals(floor[i]))));
  return {
    kind,
    plugin,
    totalMs: round(figure(totals), 1),
    checkMs: round(
      figure((s) => s.checkMs),
      1,
    ),
    diffMs: round(
      figure((s) => s.diffMs),
      1,
    ),
    ratio: round(ratio),
    apiRequests: median(samples.map((s) => s.requests)),
  };
}

/** Length of the serialized `__provider` text of each of our kinds and of the trivial provider. */
async function providerSizes(trivialText: string): Promise<Record<string, number>> {
  const kinds: ResourceKind[] = ["Machine", "Script", "ResourceDelegation", "MachineAccess"];
  const sizes: Record<string, number> = { trivial: Buffer.byteLength(trivialText) };
  for (const kind of kinds)
    sizes[kind] = Buffer.byteLength(await serializeProviderLikeEngine(providerStub(kind)));
  return sizes;
}
