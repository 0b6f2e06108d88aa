/**
 * bench/results/latest.svg, written by hand: one panel of horizontal bars per benchmark that has
 * a baseline (ours next to it), with the target as a dashed line.
 */
import { MODES, SIZES } from "./convergence";
import type { EngineKind } from "./engine";
import { KIND_LABELS } from "./report";
import type { BenchResults } from "./results";

interface Bar {
  series: number;
  value: number;
}
interface Group {
  label: string;
  bars: Bar[];
}
interface Panel {
  title: string;
  series: string[];
  groups: Group[];
  target?: { value: number; label: string };
  /** Appended to each value shown. */
  unit?: string;
}

const WIDTH = 820;
const LABEL_W = 270;
const BAR_W = 430;
const BAR_H = 14;
const COLORS = ["#2f6fbd", "#9a9a9a", "#e08a2c", "#6aa84f"];

/** The SVG text of the chart. */
export function svgChart(r: BenchResults): string {
  const panels = [enginePanel(r), upPanel(r), requestsPanel(r), convergencePanel(r)];
  const parts: string[] = [];
  let y = 40;
  for (const panel of panels) {
    const drawn = drawPanel(panel, y);
    parts.push(drawn.svg);
    y = drawn.bottom + 30;
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y}" viewBox="0 0 ${WIDTH} ${y}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    text(
      16,
      24,
      `pulumi-vmapi benchmarks, ${r.startedAt.slice(0, 10)} (npm run bench)`,
      'font-size="15" font-weight="bold"',
    ),
    ...parts,
    `</svg>`,
    ``,
  ].join("\n");
}

function requestsPanel(r: BenchResults): Panel {
  const { provider, baseline } = r.requests;
  const pair = (label: string, ours: number, base: number): Group => ({
    label,
    bars: [
      { series: 0, value: ours },
      { series: 1, value: base },
    ],
  });
  return {
    title: `1. API requests per machine (provisioning D = ${r.requests.durationSeconds} s)`,
    series: ["provider", "client, fixed 5 s poll"],
    groups: [
      pair("create-and-wait", provider.create.requests, baseline.create.requests),
      pair("update (rename + stop)", provider.update.requests, baseline.update.requests),
      pair("destroy-and-wait", provider.destroy.requests, baseline.destroy.requests),
    ],
    target: { value: 7, label: "target ≤ 7 (create, its naming update included)" },
  };
}

/** Ratios are drawn as the overhead above 1.0 (in %), so small differences stay visible. */
const overhead = (ratio: number) => Math.max(0, (ratio - 1) * 100);

function convergencePanel(r: BenchResults): Panel {
  const ratio = (mode: string, n: number) =>
    r.convergence.rows.find((x) => x.mode === mode && x.machines === n)?.ratio ?? 1;
  const shown = MODES.filter((m) => m.scaled).map((m) => m.name);
  return {
    title: `2. Convergence: wall time over D (%), N machines at once (D = ${r.convergence.durationMs / 1000} s real)`,
    series: ["provider", "client, fixed 5 s", "client, proposed", "client, 2 s ×3, cap 15 s"],
    groups: SIZES.map((n) => ({
      label: `N = ${n}`,
      bars: shown.map((mode, series) => ({ series, value: overhead(ratio(mode, n)) })),
    })),
    target: { value: 10, label: "target ≤ +10 % (N = 50)" },
    unit: " %",
  };
}

function drawPanel(panel: Panel, top: number): { svg: string; bottom: number } {
  const max =
    Math.max(...panel.groups.flatMap((g) => g.bars.map((b) => b.value)), panel.target?.value ?? 0) * 1.1;
  const scale = (v: number) => (v / max) * BAR_W;
  const out = [text(16, top, panel.title, 'font-weight="bold"')];
  panel.series.forEach((name, i) => {
    const x = 16 + i * 195;
    out.push(`<rect x="${x}" y="${top + 8}" width="10" height="10" fill="${COLORS[i]}"/>`);
    out.push(text(x + 14, top + 17, name));
  });
  let y = top + 28;
  for (const group of panel.groups) {
    const height = group.bars.length * (BAR_H + 3);
    out.push(text(LABEL_W - 8, y + height / 2 + 4, group.label, 'text-anchor="end"'));
    for (const bar of group.bars) {
      const w = Math.max(1, scale(bar.value));
      out.push(
        `<rect x="${LABEL_W}" y="${y}" width="${w.toFixed(1)}" height="${BAR_H}" fill="${COLORS[bar.series]}"/>`,
      );
      out.push(text(LABEL_W + w + 4, y + BAR_H - 3, `${formatValue(bar.value)}${panel.unit ?? ""}`));
      y += BAR_H + 3;
    }
    y += 8;
  }
  if (panel.target) {
    const x = (LABEL_W + scale(panel.target.value)).toFixed(1);
    out.push(
      `<line x1="${x}" y1="${top + 24}" x2="${x}" y2="${y - 4}" stroke="#c0392b" stroke-dasharray="4 3"/>`,
    );
    out.push(text(Number(x) + 4, y + 8, panel.target.label, 'fill="#c0392b"'));
    y += 12;
  }
  return { svg: out.join("\n"), bottom: y };
}

/** Whole numbers as they are; others with one decimal below 20 (seconds of a preview), else rounded. */
function formatValue(v: number): string {
  return String(Number(v.toFixed(Math.abs(v) < 20 ? 1 : 0)));
}

function text(x: number, y: number, content: string, attributes = ""): string {
  const escaped = content.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<text x="${x.toFixed(0)}" y="${y.toFixed(0)}" ${attributes}>${escaped}</text>`;
}

function enginePanel(r: BenchResults): Panel {
  const row = (kind: string) => r.engine.rows.find((x) => x.kind === kind)!;
  const group = (kind: EngineKind): Group => ({
    label: `${r.engine.resources} × ${KIND_LABELS[kind] ?? kind}`,
    bars: [
      { series: 0, value: row(kind).previewMs / 1000 },
      { series: 1, value: row(kind).refreshMs / 1000 },
    ],
  });
  return {
    title: `4. The real CLI: preview and refresh of ${r.engine.resources} unchanged resources (s)`,
    series: ["pulumi preview", "pulumi refresh"],
    groups: (
      [
        "noop",
        "noop40",
        "noop40stack",
        "Machine",
        "pluginMachine",
        "goNoop",
        "goNoopMachine",
        "Script",
      ] as const
    )
      .filter((kind) => r.engine.rows.some((x) => x.kind === kind)) // results of runs before a kind
      .map(group),
    target: { value: (row("noop").previewMs / 1000) * 1.1, label: "preview target: 1.1 × no-op" },
    unit: " s",
  };
}

function upPanel(r: BenchResults): Panel {
  const group = (x: BenchResults["up"]["rows"][number]): Group => ({
    label: `${x.machines} machine${x.machines === 1 ? "" : "s"}, --parallel ${x.parallel}`,
    bars: [
      { series: 0, value: x.upMs / 1000 },
      ...(x.floorMs === null ? [] : [{ series: 1, value: x.floorMs / 1000 }]),
      ...(x.fixedMs === null ? [] : [{ series: 2, value: x.fixedMs / 1000 }]),
      ...(x.pluginMs == null ? [] : [{ series: 3, value: x.pluginMs / 1000 }]),
    ],
  });
  const d = r.up.durationMs / 1000;
  return {
    title: `5. The real CLI: pulumi up of N new machines, provisioning D = ${d} s (s)`,
    series: ["Machines", "floor: no-op create waiting D", "fixed 5 s poll", "Machines on the plugin"],
    groups: r.up.rows.map(group),
    target: { value: d, label: "D" },
    unit: " s",
  };
}
