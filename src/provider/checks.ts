/**
 * Turning the shared request schemas into `CheckFailure`s that name the Pulumi property and the
 * allowed values (STYLE.md principle 6), while values unknown at preview are never failures.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { formatIssues } from "../client/requests";
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

/** Drops undefined values and the provider's own keys, leaving what an API body can hold. */
export function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
