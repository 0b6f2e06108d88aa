/**
 * Request parsing for the route handlers, with the shared schemas (src/contract/requestSchemas.ts), so
 * the emulator refuses with exactly the rules and messages the client and the provider check with.
 */
import type { z } from "zod";
import { formatIssues } from "../../contract/formatIssues";
import { QUERY_FLAG_PATTERN } from "../../contract/requestSchemas";
import { badRequest } from "../model/apiError";
import type { Filters } from "../model/filters";

/** Parses `input` or throws 400 validation_failed with one line per problem, each naming the field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw badRequest(formatIssues(result.error.issues));
  return result.data;
}

/**
 * The body to parse where a body may be left out: no body at all reads as `{}`, but a body sent as
 * JSON `null` stays null and is refused by the schema like any other value that is not an object.
 */
export function bodyOrEmpty(body: unknown): unknown {
  return body === undefined ? {} : body;
}

/** A query string as a plain object (first value of each name), for schema parsing. */
export function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of query) if (!(key in out)) out[key] = value;
  return out;
}

/**
 * Equality filters of a list endpoint. Unknown parameters are refused with the allowed list;
 * `extra` names accepted non-filter parameters (limit, skip).
 */
export function parseFilters(
  query: URLSearchParams,
  fields: readonly string[],
  extra: readonly string[] = [],
): Filters {
  const allowed = [...fields, ...extra];
  for (const key of query.keys()) {
    if (!allowed.includes(key))
      throw badRequest(`unknown query parameter ${key}; allowed: ${allowed.join(", ")}`);
  }
  const filters: Record<string, string> = {};
  for (const field of fields) {
    const value = query.get(field);
    if (value !== null) filters[field] = value;
  }
  return filters;
}

/** A query flag such as releasePublicIp: "true"/"false" (any case) or absent. */
export function queryBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!QUERY_FLAG_PATTERN.test(value)) {
    throw badRequest(`${name} must be true or false (got ${JSON.stringify(value.slice(0, 64))})`);
  }
  return /^(true|1)$/i.test(value);
}

/** Strict UTF-8: silently replacing bad bytes would store mangled text. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** `raw` as text, or undefined when it is not valid UTF-8. */
export function utf8Text(raw: Uint8Array): string | undefined {
  try {
    return UTF8.decode(raw);
  } catch {
    return undefined;
  }
}
