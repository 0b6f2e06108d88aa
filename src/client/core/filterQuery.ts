/**
 * Filters as the client sends them: checked against the endpoint's filter fields before any
 * request, so a misspelt filter fails at once instead of matching everything on the server.
 */
import { ValidationError } from "./errors";
import { filterValueToString, type FilterValue } from "../../contract/listFilters";

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
