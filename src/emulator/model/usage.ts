/**
 * GET /machines/getUtilization: seconds a machine ran and existed within a billing month, with
 * the hourly price of its type and the monthly price of its storage size (the contract's price list).
 */
import type { z } from "zod";
import type { UtilizationQuerySchema } from "../../contract/requestSchemas";
import type { Utilization } from "../../contract/schemas";
import type { Caller } from "./auth";
import { DEFAULT_PRICE_LIST, machineTypePrice, storageMonthlyRate } from "../../contract/prices";
import { machineFor } from "./permissions";
import type { Store } from "../state/store";

/** [start, end) of a YYYY-MM month in UTC, epoch ms. */
export function monthBounds(billingMonth: string): [number, number] {
  const [year, month] = billingMonth.split("-").map(Number);
  return [Date.UTC(year, month - 1, 1), Date.UTC(year, month, 1)];
}

/** Length in ms of the overlap of [from, to) and [start, end). */
export function overlapMs(from: number, to: number, start: number, end: number): number {
  return Math.max(0, Math.min(to, end) - Math.max(from, start));
}

/** The machine and billing month getUtilization is asked about. */
export type UtilizationArgs = z.output<typeof UtilizationQuerySchema>;

/**
 * Running time counts from each boot (serviceready or ready) until the machine is off or
 * destroyed; storage time counts from creation until destroy. Both are cut to the month.
 */
export function getUtilization(store: Store, caller: Caller, q: UtilizationArgs): Utilization {
  const machine = machineFor(store, caller, q.machineId, "utilization");
  const [start, end] = monthBounds(q.billingMonth);
  const now = store.now();
  const runMs = machine.runs.reduce((sum, r) => sum + overlapMs(r.from, r.to ?? now, start, end), 0);
  const storageMs = overlapMs(machine.dtCreated, machine.dtDestroyed ?? now, start, end);
  return {
    machineId: machine.id,
    utilization: {
      machineId: machine.id,
      secondsUsed: Math.floor(runMs / 1000),
      // Types are validated at create, so the list has every machine's type.
      hourlyRate: machineTypePrice(DEFAULT_PRICE_LIST, machine.machineType)!.hourly,
      billingMonth: q.billingMonth,
    },
    storageUtilization: {
      machineId: machine.id,
      secondsUsed: Math.floor(storageMs / 1000),
      monthlyRate: storageMonthlyRate(DEFAULT_PRICE_LIST, machine.size),
      billingMonth: q.billingMonth,
    },
  };
}
