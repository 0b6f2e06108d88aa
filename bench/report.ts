/**
 * bench/results/latest.md: the targets, then one short table per benchmark. Plain text tables
 * (`table`) are what `npm run bench` prints at the end.
 */
import { SIZES, MODES } from "./convergence";
import { SWEEP_SECONDS } from "./requestsPerMachine";
import { round, type RouteCounts } from "./support";
import type { EngineKind } from "./engine";
import { judgeFleet, type BenchResults } from "./results";
import type { FleetResult, ScaleCommand } from "./fleet";
import type { StartKind, StartResult } from "./pluginStart";
import type { InstructionsResult } from "./instructions";
import type { PluginScriptsResult } from "./pluginScripts";

type Cell = string | number;

/** A Markdown table (prettier aligns it when the file is written). */
export function table(head: Cell[], rows: Cell[][]): string {
  const line = (cells: Cell[]) => `| ${cells.map((c) => String(c).replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The targets of the brief: met or missed, with the figure. */
export function targetsTable(r: BenchResults): string {
  return table(
    ["target", "goal", "measured", "met"],
    r.targets.map((t) => [t.name, t.goal, t.value, t.met ? "yes" : "**no**"]),
  );
}

/** The whole latest.md. */
export function markdownReport(r: BenchResults): string {
  return [
    `# Benchmarks: latest run`,
    ``,
    `${r.startedAt}, ${Math.round(r.seconds)} s, Node ${r.host.node}, ${r.host.cpus} × ${r.host.cpuModel}, ` +
      `load average at start ${r.host.loadAverage.map((x) => x.toFixed(2)).join(" ")}. ` +
      `Produced by \`npm run bench\`; see docs/benchmarks.md for what each figure means.`,
    ``,
    targetsTable(r),
    ``,
    `## 1. Requests per machine (D = ${r.requests.durationSeconds} s, emulator time)`,
    ``,
    requestsTable(r),
    ``,
    `Create-and-wait with other polling schedules (requests / seconds until the wait returned):`,
    ``,
    scheduleTable(r),
    ``,
    `## 2. Convergence overhead (D = ${r.convergence.durationMs / 1000} s real; wall time / D)`,
    ``,
    convergenceTable(r),
    ``,
    `Median of ${r.convergence.repetitions} runs per cell; every schedule's sleeps scaled by ${r.convergence.timeScale} ` +
      `(the provider through its own pollScale); engine overhead excluded.`,
    ``,
    `## 3. Emulator headroom (${r.headroom.machines} machines, ${r.headroom.concurrency} kept-alive clients)`,
    ``,
    headroomTable(r),
    ``,
    memoryLine(r),
    ``,
    ...consoleLines(r),
    `## 4. The real engine: ${r.engine.resources} unchanged resources (median of ${r.engine.rounds} rounds)`,
    ``,
    engineTable(r),
    ``,
    `Each figure is the whole command as typed (\`npm run pulumi -- preview\`, \`refresh --yes --skip-preview\`), ` +
      `the kinds interleaved in every round; the no-op is one provider object shared by ${r.engine.resources} dynamic resources; ` +
      `noop40 is the same no-op carrying 40 properties, registered with stack traces off as ours are: a Machine's shape without its provider's work; ` +
      `noop40stack is noop40 whose plugin loads zod and axios at its first call, as ours does: the floor of any provider of this package's stack with a Machine's shape. ` +
      `${KIND_LABELS.pluginMachine} is the same Machines on the plugin route: a Pulumi YAML program of ${r.engine.resources} Machines on pulumi-resource-vmapi as users install it (the release's single executable, \`pulumi plugin install --file\`), run with Pulumi YAML's language host (no provider module per resource); ` +
      `${KIND_LABELS.goNoop} is the same program on the floor of that route, a no-op native provider in Go (pulumi-go-provider, bench/goNoop). ` +
      `State bytes: one resource in \`pulumi stack export\`, of which its provider's code (\`__provider\`).`,
    ``,
    `## 5. \`pulumi up\` of N machines (D = ${r.up.durationMs / 1000} s real; wall time / D)`,
    ``,
    upTable(r),
    ``,
    `One run per N: \`npm run pulumi -- up --yes --skip-preview\` as typed, against an emulator at time scale ${r.up.timeScale} ` +
      `(60 s of provisioning last ${r.up.durationMs / 1000} s; the provider's sleeps scaled alike). The floor is the same \`up\` of N ` +
      `no-op dynamic resources whose create waits exactly D: what it costs above D is the engine's own. ` +
      `"Fixed 5 s" is the same N machines created through the client and polled at once and every 5 s (scaled), as the retired client waited. ` +
      `"Plugin" is the same N Machines on the plugin route (a Pulumi YAML program on pulumi-resource-vmapi, the npm package's launcher), against the same floor: the dynamic no-op's, the nearest there is. ` +
      `The last row is the engine's default --parallel (4 × cores): each create holds a slot while its machine provisions, so N machines take ceil(N / parallel) waves.`,
    ``,
    ...(r.fleet ? fleetSections(r.fleet) : []),
    ...(r.start ? startSection(r.start) : []),
    ...(r.instructions ? instructionsSection(r.instructions) : []),
    ...(r.pluginScripts ? pluginScriptsSection(r.pluginScripts) : []),
  ].join("\n");
}

/** Benchmark 7: the plugin's start, each kind beside the Go no-op's. */
function startSection(start: StartResult): string[] {
  const labels: Record<StartKind, string> = {
    release: "the release (single executable, no node on PATH)",
    npmLauncher: "the npm package's launcher (node on the compiled entry)",
    goNoop: "the Go no-op plugin (the floor)",
  };
  return [
    `## 7. The plugin's start (median of ${start.rounds} rounds)`,
    ``,
    table(
      ["plugin", "exec → port printed, ms", "exec → GetPluginInfo answered, ms", "vs the Go no-op"],
      start.rows.map((x) => [labels[x.kind], x.portMs, x.firstAnswerMs, x.ratio]),
    ),
    ``,
  ];
}

/** Benchmark 9: Scripts in one stack on the plugin, each command's wall time and peak RSS. */
function pluginScriptsSection(result: PluginScriptsResult): string[] {
  return [
    `## 9. ${result.scripts.toLocaleString("en-US")} Scripts on the plugin (the release, Pulumi YAML)`,
    ``,
    table(
      ["command", "wall ms", "the plugin's peak RSS, MB", "every run (ms / MB)"],
      result.rows.map((x) => [
        COMMAND_LABELS[x.command],
        x.ms,
        x.peakRssMB,
        x.runs.map((run) => `${run.ms} / ${run.peakRssMB}`).join(", "),
      ]),
    ),
    ``,
  ];
}

/** Benchmark 8: the plugin's first answer and a Machine's Check + Diff, in instructions. */
function instructionsSection(counts: InstructionsResult): string[] {
  const startLabels: Record<string, string> = {
    release: "the release",
    goNoop: "the Go no-op plugin",
    node: "`node -e 0` (the same Node build)",
  };
  const resourceLabels: Record<string, string> = {
    release: "the release",
    goNoop: "the Go no-op plugin, as the engine starts it",
    goNoopOneProc: "the Go no-op plugin, GOMAXPROCS=1 (no idle spinning counted)",
  };
  return [
    `## 8. Instructions (callgrind)`,
    ``,
    table(
      ["first answer (exec → GetPluginInfo answered)", "main thread, M", "all threads, M"],
      counts.start.map((x) => [startLabels[x.kind], x.mainM, x.allM]),
    ),
    ``,
    table(
      [
        `a Machine's Check + Diff (${counts.resources} resources)`,
        "base, M",
        "with them, M",
        "per resource, K",
      ],
      counts.perResource.map((x) => [resourceLabels[x.kind], x.baseM, x.withResourcesM, x.perResourceK]),
    ),
    ``,
    ...(counts.refreshPerResource
      ? [
          table(
            [
              `a Machine's Read + Diff, as a refresh asks them (${counts.resources} resources, 8 in flight)`,
              "base, M",
              "with them, M",
              "per resource, K",
            ],
            counts.refreshPerResource.map((x) => [
              resourceLabels[x.kind],
              x.baseM,
              x.withResourcesM,
              x.perResourceK,
            ]),
          ),
          ``,
        ]
      : []),
  ];
}

/** What bench/results/fleet.md is made of: one run of benchmark 6 (and 4, if it ran too). */
export interface FleetRun {
  startedAt: string;
  seconds: number;
  host: BenchResults["host"];
  quick: boolean;
  fleet?: FleetResult;
  engine?: BenchResults["engine"];
}

/** bench/results/fleet.md: the fleets' targets (with benchmark 4's refresh of Machines), then benchmark 6's tables. */
export function fleetReport(run: FleetRun): string {
  const targets = judgeFleet(run);
  return [
    `# Benchmarks: fleets${run.quick ? " (--quick: reduced counts)" : ""}`,
    ``,
    `${run.startedAt}, ${Math.round(run.seconds)} s, Node ${run.host.node}, ${run.host.cpus} × ${run.host.cpuModel}, ` +
      `load average at start ${run.host.loadAverage.map((x) => x.toFixed(2)).join(" ")}. ` +
      `Produced by \`npm run bench -- --only fleet${run.quick ? " --quick" : ""}\` (or a full run); see docs/benchmarks.md.`,
    ``,
    table(
      ["target", "goal", "measured", "met"],
      targets.map((t) => [t.name, t.goal, t.value, t.met ? "yes" : "**no**"]),
    ),
    ``,
    ...(run.fleet ? fleetSections(run.fleet) : []),
  ].join("\n");
}

function fleetSections(f: FleetResult): string[] {
  const rate = f.limited[0]?.rate;
  return [
    `## 6. Fleets: \`up --parallel ${f.limited[0]?.parallel}\` under ${rate} requests/s (D = ${f.durationMs / 1000} s real)`,
    ``,
    limitedTable(f),
    ``,
    `Ideal: D + 2N / rate, the creates' requests alone at the limit and then one provisioning. A create is two requests, its POST and the naming update that gives the settled machine its name ` +
      `(the creates that start together share one listing of the account's machines, counted beyond them); "beyond its create" is (served − 2N) / N. ` +
      `Before the naming update a create was its POST alone: the ideal was D + N / rate and "beyond its create" (served − N) / N. Request floor: D + served / rate, the least time the requests made take at the limit. ` +
      `Orphans: live machines the stack does not hold; duplicates: extra live machines of one name. The limit is lifted before the destroy.`,
    ``,
    `## 6. Fleets: ${f.scale.resources} ${f.scale.kind}s in one stack (--parallel ${f.scale.parallel})`,
    ``,
    scaleTable(f),
    ``,
    `The plugin's figures are read inside the dynamic-provider process (bench/pluginProbe.cjs, preloaded through NODE_OPTIONS): ` +
      `peak RSS is the kernel's high-water mark (\`resourceUsage().maxRSS\`), the delay is \`monitorEventLoopDelay\` at 10 ms resolution, less the resolution (an idle loop reads 0).`,
    ...(f.scale.baselines
      ? [
          ``,
          `The same commands of ${f.scale.resources} no-op resources, each in a stack of its own (bench/programs/noop): the SDK's own plugin without our provider. ` +
            `"No-op of a Script's shape" carries ${f.scale.baselines.find((b) => b.name === "noopShape")?.props} more properties, so that a refresh's read and diff of one carry about as many property values as a Script's.` +
            waitingNote(f),
          ``,
          baselineTable(f),
          ...refreshSamples(f),
        ]
      : []),
    ``,
  ];
}

function limitedTable(f: FleetResult): string {
  return table(
    [
      "machines",
      "faults",
      "exit",
      "failed ops",
      "up ms",
      "ideal ms",
      "up / ideal",
      "request floor ms",
      "sent / served / refused",
      "beyond create per machine",
      "stack / live",
      "duplicates",
      "orphans",
      "converged",
      "destroy ms",
    ],
    f.limited.map((x) => [
      x.machines,
      `${x.faultRate * 100} %`,
      x.exitCode,
      x.failedOperations,
      x.upMs,
      x.idealMs,
      x.ratio,
      x.requestFloorMs,
      `${x.sent} / ${x.served} / ${x.refused}`,
      x.beyondCreatePerMachine,
      `${x.stackMachines} / ${x.liveMachines}`,
      x.duplicates,
      x.orphans,
      x.converged ? "yes" : "**no**",
      x.destroyMs,
    ]),
  );
}

function scaleTable(f: FleetResult): string {
  return table(
    [
      "command",
      "wall ms",
      `API requests (per ${f.scale.kind})`,
      "plugin peak RSS MB",
      "event-loop delay ms (mean / p99 / max)",
    ],
    f.scale.commands.map((c) => [
      COMMAND_LABELS[c.command],
      c.ms,
      c.requests === undefined ? "–" : `${c.requests} (${round(c.requests / f.scale.resources, 2)})`,
      c.plugin?.peakRssMB ?? "–",
      c.plugin
        ? `${c.plugin.loopDelayMs.mean} / ${c.plugin.loopDelayMs.p99} / ${c.plugin.loopDelayMs.max}`
        : "–",
    ]),
  );
}

const COMMAND_LABELS: Record<ScaleCommand["command"], string> = {
  preview: "preview",
  up: "up",
  refresh: "refresh",
  refreshDefault: "refresh, the engine's default --parallel",
  destroy: "destroy",
};

const BASELINE_LABELS: Record<string, string> = {
  noop: "no-op",
  noopShape: "no-op of a Script's shape",
  noopShapeWaiting: "the same, its read waiting",
};

/** The refreshes' runs, when they ran several times side by side (since 2026-11-26). */
function refreshSamples(f: FleetResult): string[] {
  const kinds = scaleKinds(f);
  const rows = kinds.flatMap(([name, commands]) => {
    return commands
      .filter((c) => c.samples)
      .map((c) => [
        name,
        COMMAND_LABELS[c.command],
        (c.samples ?? []).map((s) => `${s.ms} / ${s.peakRssMB ?? "–"}`).join(", "),
      ]);
  });
  if (rows.length === 0) return [];
  return [
    ``,
    `The ${kinds.length} stacks were up at once and each command ran on each in turn; each refresh (at --parallel ${f.scale.parallel}, and at the engine's default, 4 × cores) ran ${rows[0][2].split(", ").length} times on each stack, interleaved, ` +
      `and the tables give its median wall time and the run of its median peak RSS. Every run (wall ms / peak RSS MB):`,
    ``,
    table(["stack", "command", "runs"], rows),
  ];
}

/** Each stack at scale, ours first, with the label of its column. */
function scaleKinds(f: FleetResult): Array<[string, ScaleCommand[]]> {
  return [
    [`${f.scale.kind}s`, f.scale.commands],
    ...(f.scale.baselines ?? []).map((b): [string, ScaleCommand[]] => [BASELINE_LABELS[b.name], b.commands]),
  ];
}

function waitingNote(f: FleetResult): string {
  const waiting = f.scale.baselines?.find((b) => b.name === "noopShapeWaiting");
  return waiting
    ? ` "Its read waiting": the same no-op, each read waiting ${waiting.readMs} ms on a timer and doing nothing else, as a read waits for an API's answer.`
    : "";
}

function baselineTable(f: FleetResult): string {
  const kinds = scaleKinds(f);
  return table(
    ["command", ...kinds.map(([name]) => `${name}: wall ms / peak RSS MB`)],
    f.scale.commands.map((c) => [
      COMMAND_LABELS[c.command],
      ...kinds.map(([, commands]) => {
        const same = commands.find((x) => x.command === c.command);
        return same ? `${same.ms} / ${same.plugin?.peakRssMB ?? "–"}` : "–";
      }),
    ]),
  );
}

function routes(counts: RouteCounts): string {
  return Object.entries(counts)
    .map(([route, n]) => `${n} × ${route}`)
    .join(", ");
}

function requestsTable(r: BenchResults): string {
  const { provider, baseline } = r.requests;
  const ops = [
    ["create-and-wait", provider.create, baseline.create],
    // Results written before this row existed have no such entry.
    ...(provider.createWithSettings
      ? ([["create-and-wait, in-place settings declared", provider.createWithSettings, undefined]] as const)
      : []),
    ["update (rename + stop)", provider.update, baseline.update],
    ["destroy-and-wait", provider.destroy, baseline.destroy],
    ["check (not part of create)", provider.check, undefined],
  ] as const;
  return table(
    ["operation", "provider", "fixed 5 s", "provider returned after", "provider requests by route"],
    ops.map(([name, ours, base]) => [
      name,
      ours.requests,
      base?.requests ?? "–",
      `${ours.returnedAfterSeconds} s`,
      routes(ours.byRoute),
    ]),
  );
}

function scheduleTable(r: BenchResults): string {
  return table(
    ["schedule", ...SWEEP_SECONDS.map((d) => `D = ${d} s`)],
    r.requests.schedules.map((s) => [
      s.name,
      ...SWEEP_SECONDS.map((d) => `${s.byDuration[d].requests} / ${s.byDuration[d].returnedAfterSeconds} s`),
    ]),
  );
}

function convergenceTable(r: BenchResults): string {
  const cell = (mode: string, n: number) => {
    const row = r.convergence.rows.find((x) => x.mode === mode && x.machines === n);
    return row ? `${row.ratio.toFixed(2)} (${row.requestsPerMachine} req/machine)` : "–";
  };
  return table(
    ["mode", ...SIZES.map((n) => `N = ${n}`)],
    MODES.map(({ name }) => [name, ...SIZES.map((n) => cell(name, n))]),
  );
}

function headroomTable(r: BenchResults): string {
  const h = r.headroom;
  const line = (name: string, l: typeof h.show) => [
    name,
    Math.round(l.requestsPerSecond),
    l.requests,
    `${l.latencyMs.p50.toFixed(1)} / ${l.latencyMs.p99.toFixed(1)}`,
    Math.round(l.meanBodyBytes),
    l.serverErrors,
  ];
  return table(
    ["route", "requests/s", "requests", "p50 / p99 ms", "body bytes", "5xx + failed"],
    [
      line(`show (GET /machines/getMachinePublic), ${h.secondsPerRoute} s`, h.show),
      line(`list (GET /machines/getMachines, 1,000 per page), ${h.secondsPerRoute} s`, h.list),
      line(`create (POST, while filling to ${h.machines})`, h.create),
    ],
  );
}

/** Benchmark 3's console comparison, when it ran. */
function consoleLines(r: BenchResults): string[] {
  const c = r.headroom.console;
  if (!c) return [];
  const side = (runs: typeof c.with.show) => runs.map((x) => Math.round(x.requestsPerSecond)).join(", ");
  const cpu = (runs: typeof c.with.show) => runs.map((x) => x.cpuUsPerRequest).join(", ");
  const row = (route: "show" | "list") => [
    route,
    side(c.without[route]),
    side(c.with[route]),
    `${c.ratio[route].requestsPerSecond} (noise ${c.noise[route]})`,
    `${c.ratio[route].p50} / ${c.ratio[route].p99}`,
    `${cpu(c.without[route])} / ${cpu(c.with[route])}`,
    `${c.ratio[route].cpuPerRequest} (noise ${c.noise[`${route}Cpu`]})`,
  ];
  return [
    `With a console page attached (headless Chromium, live), ${c.rounds} rounds of ${c.secondsPerRun} s per side and route, sides alternating:`,
    ``,
    table(
      [
        "route",
        "requests/s without",
        "requests/s with",
        "with / without",
        "p50 / p99, with / without",
        "emulator CPU µs per request, without / with",
        "CPU with / without",
      ],
      [row("show"), row("list")],
    ),
    ``,
    `The page heard of ${c.pageSawRequests.toLocaleString("en-US")} requests while attached. The request log costs ` +
      `${c.requestLog.nsPerRecord} ns per request (${(c.requestLog.shareOfShow * 100).toFixed(3)} % of a show request's time).`,
    ``,
  ];
}

function memoryLine(r: BenchResults): string {
  const m = r.headroom.memory;
  return (
    `Memory at ${m.machines.toLocaleString("en-US")} machines (emulator CLI child, after a full GC): ` +
    `heap used ${m.empty.heapUsedMB} → ${m.full.heapUsedMB} MB (+${m.delta.heapUsedMB} MB, ` +
    `${m.perMachineKB.heapUsed} KB per machine); RSS ${m.empty.rssMB} → ${m.full.rssMB} MB ` +
    `(+${m.delta.rssMB} MB, ${m.perMachineKB.rss} KB per machine).`
  );
}

function upTable(r: BenchResults): string {
  return table(
    [
      "machines",
      "--parallel",
      "up ms",
      "up / D",
      "floor ms",
      "floor / D",
      "up / floor",
      "requests per machine",
      "fixed 5 s: up ms",
      "fixed 5 s: up / D",
      "fixed 5 s: requests per machine",
      "plugin: up ms",
      "plugin: up / D",
      "plugin: up / floor",
      "plugin: requests per machine",
      "destroy ms",
    ],
    r.up.rows.map((x) => [
      x.machines,
      x.parallel,
      x.upMs,
      x.ratio,
      x.floorMs ?? "–",
      x.floorRatio ?? "–",
      x.overFloor ?? "–",
      x.requestsPerMachine,
      x.fixedMs ?? "–",
      x.fixedRatio ?? "–",
      x.fixedRequestsPerMachine ?? "–",
      x.pluginMs ?? "–",
      x.pluginRatio ?? "–",
      x.pluginOverFloor ?? "–",
      x.pluginRequestsPerMachine ?? "–",
      x.destroyMs,
    ]),
  );
}

/** How benchmark 4's kinds are named in the tables (the others by their own name). */
export const KIND_LABELS: Partial<Record<EngineKind, string>> = {
  pluginMachine: "Machine on the plugin (YAML, the release)",
  goNoop: "Machine on the Go no-op plugin (YAML)",
  goNoopMachine: "Machine on the Go no-op plugin answering the plugin's state (YAML)",
};

function engineTable(r: BenchResults): string {
  return table(
    [
      "resources",
      "preview ms",
      "ratio",
      "refresh ms",
      "ratio",
      "API requests (preview / refresh)",
      "state bytes (provider)",
    ],
    r.engine.rows.map((x) => [
      `${x.resources} × ${KIND_LABELS[x.kind] ?? x.kind}`,
      x.previewMs,
      x.previewRatio,
      x.refreshMs,
      x.refreshRatio,
      `${x.previewRequests} / ${x.refreshRequests}`,
      `${x.stateBytes} (${x.providerBytes})`,
    ]),
  );
}
