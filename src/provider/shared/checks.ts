/**
 * Turning the shared request schemas into `CheckFailure`s that name the Pulumi property and the
 * allowed values, so `pulumi preview` fails before any API call, while values unknown at preview
 * are never failures.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { formatIssues } from "../../contract/formatIssues";
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

/**
 * Drops undefined values: an API body leaves a field out, the plugin cannot encode undefined, and
 * a partial options object spread over defaults must not reset a default to undefined.
 */
export function definedOnly<T extends object>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as T;
}

/** The longest input value a failure may name: the engine prints the named property's value in full. */
const MAX_ECHOED_CHARS = 256;

/**
 * Failures as the engine should print them: each once (the create and update schemas share
 * fields such as the name), and a failure on a long plain value (a 20 KB script text) or on a
 * secret input reported without naming the property, because the engine prints "property P
 * value V has a problem" with V in full (and the engine strips the secret mark before `check`,
 * so it prints a secret in plain text). Every reason already names its property; a reason never
 * shows the value of an input the program made secret (`secrets`: the call's `secretInputs`).
 */
export function printableFailures(
  failures: readonly pulumi.dynamic.CheckFailure[],
  inputs: Record<string, unknown>,
  secrets: readonly string[],
): pulumi.dynamic.CheckFailure[] {
  const seen = new Set<string>();
  const result: pulumi.dynamic.CheckFailure[] = [];
  for (const failure of failures) {
    const key = `${failure.property}\u0000${failure.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const value = inputs[failure.property];
    const long = typeof value === "string" && value.length > MAX_ECHOED_CHARS;
    const secret = secrets.includes(failure.property);
    // Our reasons end with the value they refuse, as "(got …)": for a secret, say so instead.
    const said = secret ? failure.reason.replace(/ \(got .*\)$/s, " (got a secret value)") : failure.reason;
    const reason = withoutSecretValues(said, secrets, inputs);
    result.push(long || secret ? { property: "", reason } : { property: failure.property, reason });
  }
  return result;
}

/** Shortest secret text that is masked wherever it appears (shorter ones would garble the message). */
const MIN_MASKED_CHARS = 4;

/**
 * `text` with every secret input's value (its strings, as written and as JSON would quote them,
 * and the 64-character prefix formatIssues echoes) replaced by `[secret]`.
 */
export function withoutSecretValues(
  text: string,
  secrets: readonly string[],
  inputs: Record<string, unknown>,
): string {
  const forms = secrets
    .flatMap((name) => stringsIn(inputs[name]))
    .flatMap((value) => {
      const quoted = JSON.stringify(value).slice(1, -1);
      return [value, quoted, value.slice(0, 64), quoted.slice(0, 64)];
    });
  const masked = [...new Set(forms)]
    .filter((f) => f.length >= MIN_MASKED_CHARS)
    .sort((a, b) => b.length - a.length);
  return masked.reduce((out, form) => out.split(form).join("[secret]"), text);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return value === UNKNOWN ? [] : [value];
  if (typeof value === "number" || typeof value === "boolean") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}
