/**
 * What a machine costs, from the price list: an hourly-billed machine pays its type's hourly rate
 * while it runs, a monthly-billed one its monthly rate whatever its power state, and every
 * machine pays for its disk by size tier. A month is HOURS_PER_MONTH hours.
 */
import { HOURS_PER_MONTH, machineTypePrice, storageMonthlyRate, type PriceList } from "../contract/priceList";

/** What a machine's bill depends on, as a preview knows it (undefined: known only after `up`). */
export interface BilledMachine {
  machineType?: string;
  billingType?: string;
  sizeGb?: number;
  running: boolean;
}

/** A machine's cost in dollars, or why it cannot be priced. */
export type Cost = { hourly: number; monthly: number } | { unknown: string };

/** A price list that does not price a machine the preview names. */
export class PriceListError extends Error {
  /** The class name, for matching by name across copies of the package. */
  override readonly name = "PriceListError";
}

/** The cost of `machine` under `list`. */
export function machineCost(machine: BilledMachine, list: PriceList): Cost {
  const { machineType, billingType, sizeGb } = machine;
  if (machineType === undefined) return { unknown: "machineType known after up" };
  if (sizeGb === undefined) return { unknown: "size known after up" };
  if (billingType !== "hourly" && billingType !== "monthly")
    return {
      unknown: billingType === undefined ? "billingType known after up" : `billingType ${billingType}`,
    };
  const rate = machineTypePrice(list, machineType);
  if (rate === undefined) {
    throw new PriceListError(
      `the price list "${list.name}" has no price for machineType ${machineType} (it prices: ${Object.keys(list.machineTypes).join(", ")})`,
    );
  }
  const storage = Number(storageMonthlyRate(list, sizeGb));
  const machineMonthly =
    billingType === "monthly"
      ? Number(rate.monthly)
      : machine.running
        ? Number(rate.hourly) * HOURS_PER_MONTH
        : 0;
  const monthly = machineMonthly + storage;
  return { hourly: monthly / HOURS_PER_MONTH, monthly };
}

/** Sums costs; an unknown one makes the sum partial (`unknown` counts them). */
export function sumCosts(costs: readonly (Cost | undefined)[]): {
  hourly: number;
  monthly: number;
  unknown: number;
} {
  const total = { hourly: 0, monthly: 0, unknown: 0 };
  for (const cost of costs) {
    if (cost === undefined) continue;
    if ("unknown" in cost) total.unknown += 1;
    else {
      total.hourly += cost.hourly;
      total.monthly += cost.monthly;
    }
  }
  return total;
}
