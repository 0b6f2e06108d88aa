/**
 * Query strings of the list endpoints. Filters travel as strings (booleans and numbers written
 * out, null as "null", as the service's clients sent them) and only known filter names are
 * accepted: a misspelt filter would otherwise be ignored by the server and match everything.
 */
import { ValidationError } from "./errors";
import type { FilterValue } from "./requests";

/** Pure: one filter value as it travels. */
export function filterValueToString(value: FilterValue): string {
  if (value === null) return "null";
  return String(value);
}

/**
 * Pure: filters to query parameters. Undefined entries are dropped; an unknown name or a value of
 * the wrong kind is a `ValidationError` naming the field and the allowed names.
 */
export function filtersToQuery(
  filters: Readonly<Record<string, FilterValue | undefined>> | undefined,
  allowed: readonly string[],
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (value === undefined) continue;
    if (!allowed.includes(name)) {
      throw new ValidationError(`unknown filter ${name}; filters are: ${allowed.join(", ")}`);
    }
    if (value !== null && !["string", "number", "boolean"].includes(typeof value)) {
      throw new ValidationError(
        `filter ${name} must be a string, number, boolean or null (got ${typeof value})`,
      );
    }
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new ValidationError(`filter ${name} must be a finite number (got ${value})`);
    }
    query[name] = filterValueToString(value);
  }
  return query;
}
