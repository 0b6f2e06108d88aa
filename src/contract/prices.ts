/**
 * The price list, written once: the emulator serves its rates (getUtilization's `hourlyRate` and
 * storage `monthlyRate`), and `vmapi-review` prices a change with the same table, or with a price
 * file of the user's own in the same shape. Invented but plausible numbers; only their shape is
 * part of the API. Rates are decimal strings, as the wire carries them. The table and its lookups
 * are priceList.ts's (no zod), re-exported here; this module adds the price file's schema.
 */
import { z } from "zod";

export {
  DEFAULT_PRICE_LIST,
  HOURS_PER_MONTH,
  machineTypePrice,
  storageMonthlyRate,
  type MachineTypePrice,
  type PriceList,
  type StorageTier,
} from "./priceList";

/** A rate in a price file: a non-negative number or decimal string, kept as a decimal string. */
const RateSchema = z.unknown().transform((value, ctx) => {
  const ok =
    (typeof value === "number" && Number.isFinite(value) && value >= 0) ||
    (typeof value === "string" && /^\d+(\.\d+)?$/.test(value));
  if (ok) return String(value);
  const got = value === undefined ? "nothing" : JSON.stringify(value).slice(0, 40);
  ctx.addIssue({ code: "custom", message: `must be a non-negative number such as 0.036 (got ${got})` });
  return z.NEVER;
});

/** A price file (`vmapi-review --prices FILE`): the shape of `PriceList`, rates as numbers or strings. */
export const PriceListSchema = z
  .object({
    name: z.string().min(1),
    machineTypes: z
      .record(z.string().min(1), z.object({ hourly: RateSchema, monthly: RateSchema }).strict())
      .refine((types) => Object.keys(types).length > 0, "must name at least one machine type"),
    storage: z
      .array(z.object({ upToGb: z.number().positive(), monthly: RateSchema }).strict())
      .min(1)
      .refine(
        (tiers) => tiers.every((t, i) => i === 0 || t.upToGb > tiers[i - 1].upToGb),
        "must list its tiers in ascending order of upToGb",
      ),
  })
  .strict();
