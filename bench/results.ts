/**
 * The shape of bench/results/latest.json, and the targets each run is judged against.
 */
import { PROVIDER, type ConvergenceResult } from "./convergence";
import { round } from "./support";
import type { HeadroomResult } from "./emulatorHeadroom";
import type { EngineResult } from "./engine";
import type { EngineUpResult } from "./engineUp";
import type { RequestsResult } from "./requestsPerMachine";

/** Everything one `npm run bench` measured. */
export interface BenchResults {
  startedAt: string;
  seconds: number;
  host: { node: string; cpus: number; cpuModel: string; loadAverage: number[] };
  requests: RequestsResult;
  convergence: ConvergenceResult;
  headroom: HeadroomResult;
  engine: EngineResult;
  up: EngineUpResult;
  targets: Target[];
}

/** One target of the brief, with the figure it is judged on. */
export interface Target {
  name: string;
  goal: string;
  value: number;
  met: boolean;
}

/** The targets, judged on `r`. */
export function judge(r: Omit<BenchResults, "targets">): Target[] {
  const converge50 = r.convergence.rows.find((x) => x.mode === PROVIDER && x.machines === 50);
  const up50 = r.up.rows.find((x) => x.machines === 50 && x.overFloor !== null);
  const serverErrors = r.headroom.show.serverErrors + r.headroom.list.serverErrors;
  const previewRatio = (kind: string) => r.engine.rows.find((x) => x.kind === kind)?.previewRatio ?? NaN;
  return [
    target("pulumi preview, 200 Machines vs no-op", "≤ 1.1", previewRatio("Machine"), (v) => v <= 1.1),
    target("pulumi preview, 200 Scripts vs no-op", "≤ 1.1", previewRatio("Script"), (v) => v <= 1.1),
    target(
      "pulumi preview, 200 Machines vs a no-op of their shape",
      "≤ 1.1",
      round(previewRatio("Machine") / previewRatio("noop40")),
      (v) => v <= 1.1,
    ),
    target("requests, create-and-wait (D = 60 s)", "≤ 6", r.requests.provider.create.requests, (v) => v <= 6),
    target("pulumi up wall / D, 50 machines", "≤ 1.1", up50?.ratio ?? NaN, (v) => v <= 1.1),
    target("pulumi up, 50 machines / the engine's floor", "≤ 1.1", up50?.overFloor ?? NaN, (v) => v <= 1.1),
    target("provider-level wall / D, 50 machines", "≤ 1.1", converge50?.ratio ?? NaN, (v) => v <= 1.1),
    target("emulator 5xx or failed connections under load", "0", serverErrors, (v) => v === 0),
  ];
}

function target(name: string, goal: string, value: number, ok: (v: number) => boolean): Target {
  return { name, goal, value, met: Number.isFinite(value) && ok(value) };
}
