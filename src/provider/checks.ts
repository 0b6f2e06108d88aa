/**
 * Turning the shared request schemas into `CheckFailure`s that name the Pulumi property and the
 * allowed values, so `pulumi preview` fails before any API call, while values unknown at preview
 * are never failures.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { formatIssues } from "../client/formatIssues";
import { UNKNOWN } from "./unknown";

/**
 * Parses `body` with `schema` and reports each issue under the Pulumi property it came from.
 * `propertyOf` maps a wire field to the input's name (e.g. machineName → name); issues on a
 * property whose input value is unknown are dropped.
 */
export function schemaFailures(
  schema: z.ZodType,
  body: Record<string, unknown>,
  inputs: Record<string, unknown>,
  propertyOf: (wireField: string) => string = (f) => f,
): pulumi.dynamic.CheckFailure[] {
  const parsed = schema.safeParse(body, { reportInput: true });
  if (parsed.success) return [];
  const failures: pulumi.dynamic.CheckFailure[] = [];
  for (const issue of parsed.error.issues) {
    const wireField = issue.path.length > 0 ? String(issue.path[0]) : "";
    const property = wireField ? propertyOf(wireField) : "";
    if (inputs[property] === UNKNOWN) continue;
    const reason = formatIssues([issue]).replace(wireField, property);
    failures.push({ property, reason });
  }
  return failures;
}

/** A failure for a value that must be one of `allowed`. */
export function oneOfFailure(property: string, allowed: readonly string[], got: unknown) {
  return {
    property,
    reason: `${property} must be one of: ${allowed.join(", ")} (got ${JSON.stringify(got)})`,
  };
}

/** Drops undefined values: an API body leaves a field out, and the plugin cannot encode undefined. */
export function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** The longest input value a failure may name: the engine prints the named property's value in full. */
const MAX_ECHOED_CHARS = 256;

/**
 * Failures as the engine should print them: each once (the create and update schemas share
 * fields such as the name), and a failure on a long plain value (a 20 KB script text) reported
 * without naming the property, because the engine prints "property P value V has a problem"
 * with V in full. Every reason already names its property.
 */
export function printableFailures(
  failures: readonly pulumi.dynamic.CheckFailure[],
  inputs: Record<string, unknown>,
): pulumi.dynamic.CheckFailure[] {
  const seen = new Set<string>();
  const result: pulumi.dynamic.CheckFailure[] = [];
  for (const failure of failures) {
    const key = `${failure.property}\u0000${failure.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const value = inputs[failure.property];
    const long = typeof value === "string" && value.length > MAX_ECHOED_CHARS;
    result.push(long ? { property: "", reason: failure.reason } : failure);
  }
  return result;
}
