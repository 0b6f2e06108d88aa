/**
 * `--fail-on` gates for CI: `destroy` fails when any disk would be destroyed,
 * `cost-increase=<dollars per month>` when the machines' monthly cost grows by more than that.
 */
import { sumCosts } from "./cost";
import type { ReviewModel } from "./reviewModel";

/** One CI gate: a destroyed disk, or a monthly cost increase above `maxMonthly` dollars. */
export type FailOn = { kind: "destroy" } | { kind: "cost-increase"; maxMonthly: number };

/** A `--fail-on` value that is not a gate. */
export class ReviewUsageError extends Error {
  /** The class name, for matching by name across copies of the package. */
  override readonly name = "ReviewUsageError";
}

const ALLOWED = "destroy, cost-increase=<dollars per month> (e.g. cost-increase=100)";

/** Parses one `--fail-on` value (comma-separated gates allowed). */
export function parseFailOn(value: string): FailOn[] {
  return value
    .split(",")
    .map((v) => v.trim())
    .map((gate): FailOn => {
      if (gate === "destroy") return { kind: "destroy" };
      const match = /^cost-increase=\$?(.*)$/.exec(gate);
      if (match) {
        const amount = Number(match[1]);
        if (match[1] !== "" && Number.isFinite(amount) && amount >= 0)
          return { kind: "cost-increase", maxMonthly: amount };
        throw new ReviewUsageError(
          `--fail-on cost-increase needs a non-negative amount of dollars per month (got ${JSON.stringify(match[1])})`,
        );
      }
      throw new ReviewUsageError(`--fail-on: unknown gate ${JSON.stringify(gate)}; allowed: ${ALLOWED}`);
    });
}

/** The gates that fail on this model, each as a sentence. */
export function failedGates(model: ReviewModel, gates: readonly FailOn[]): string[] {
  const failures: string[] = [];
  for (const gate of gates) {
    if (gate.kind === "destroy" && model.disks.length > 0) {
      const disks = model.disks.map((d) => `${d.machineName} (${d.machineId}, ${d.sizeGb ?? "?"} GB)`);
      failures.push(
        `--fail-on destroy: ${model.disks.length} disk(s) would be destroyed: ${disks.join(", ")}`,
      );
    }
    if (gate.kind === "cost-increase") {
      const before = sumCosts(model.machines.map((m) => m.before));
      const after = sumCosts(model.machines.map((m) => m.after));
      const increase = after.monthly - before.monthly;
      if (after.unknown > 0) {
        failures.push(
          `--fail-on cost-increase=${gate.maxMonthly}: the cost of ${after.unknown} machine(s) is known only after up`,
        );
      } else if (increase > gate.maxMonthly + 1e-9) {
        failures.push(
          `--fail-on cost-increase=${gate.maxMonthly}: the monthly cost grows by $${increase.toFixed(2)} ($${before.monthly.toFixed(2)} → $${after.monthly.toFixed(2)})`,
        );
      }
    }
  }
  return failures;
}
