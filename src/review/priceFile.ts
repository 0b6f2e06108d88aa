/**
 * A price file of the user's own (`vmapi-review --prices FILE`) in place of the built-in list,
 * validated with the contract's schema; a bad one fails naming the field and what it must be.
 */
import type { z } from "zod";
import { formatIssues } from "../contract/formatIssues";
import { PriceListSchema, type PriceList } from "../contract/prices";

/** A price file that cannot be used. */
export class PriceFileError extends Error {
  /** The class name, for matching by name across copies of the package. */
  override readonly name = "PriceFileError";
}

/**
 * Parses the text (or the already parsed value) of a price file: `{ name, machineTypes: { <type>:
 * { hourly, monthly } }, storage: [{ upToGb, monthly }] }`, rates in dollars as numbers or
 * decimal strings. `source` names the file in errors.
 */
export function parsePriceList(input: string | unknown, source = "the price file"): PriceList {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (err) {
      throw new PriceFileError(`${source} is not JSON (${(err as Error).message})`);
    }
  }
  const parsed = PriceListSchema.safeParse(value);
  if (!parsed.success) throw new PriceFileError(`${source}: ${parsed.error.issues.map(issue).join("; ")}`);
  return parsed.data;
}

// Custom issues carry only their message; the field they are about comes first.
function issue(i: z.core.$ZodIssue): string {
  if (i.code !== "custom") return formatIssues([i]);
  return `${i.path.length > 0 ? i.path.map(String).join(".") : "the file"} ${i.message}`;
}
