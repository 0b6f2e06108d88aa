/**
 * The shape of bench/results/latest.json, and the targets each run is judged against.
 */
import { PROVIDER, type ConvergenceResult } from "./convergence";
import type { HeadroomResult } from "./emulatorHeadroom";
import type { RequestsResult } from "./requestsPerMachine";

/** Everything one `npm run bench` measured. */
export interface BenchResults {
  startedAt: string;
  seconds: number;
  host: { node: string; cpus: number; cpuModel: string; loadAverage: number[] };
  requests: RequestsResult;
  convergence: ConvergenceResult;
  headroom: HeadroomResult;
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
  const serverErrors = r.headroom.show.serverErrors + r.headroom.list.serverErrors;
  return [
    target("requests, create-and-wait (D = 60 s)", "≤ 8", r.requests.provider.create.requests, (v) => v <= 8),
    target("convergence wall / D, 50 machines", "≤ 1.15", converge50?.ratio ?? NaN, (v) => v <= 1.15),
    target("emulator 5xx or failed connections under load", "0", serverErrors, (v) => v === 0),
  ];
}

function target(name: string, goal: string, value: number, ok: (v: number) => boolean): Target {
  return { name, goal, value, met: Number.isFinite(value) && ok(value) };
}
