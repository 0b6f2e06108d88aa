/**
 * The wording of a refused input, shared by every layer that validates with the request
 * schemas: the client (`ValidationError`), the provider's `check` (`CheckFailure.reason`), the
 * emulator (400 `validation_failed`) and response checking (`ResponseValidationError`). One
 * wording, so a refusal reads the same wherever it is caught.
 */
import type { z } from "zod";

/**
 * One line per problem, each naming the field: `region must be one of: A, B, C (got "Mars")`.
 * Parse with `{ reportInput: true }` to get the offending value for enums. Values of other
 * kinds are never echoed, so a password cannot leak into a message.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map(formatIssue).join("; ");
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? `${field} is required`
        : `${field} must be ${article(issue.expected)} (got ${describe(issue.input)})`;
    case "invalid_value":
      return issue.input === undefined
        ? `${field} is required (one of: ${issue.values.map(String).join(", ")})`
        : `${field} must be one of: ${issue.values.map(String).join(", ")}${echo(issue.input)}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map(fieldName).join(", ")}${field === "body" ? "" : ` in ${field}`}`;
    case "custom":
      return issue.message;
    case "invalid_union": {
      const branch = deepestBranch(issue.errors);
      if (branch === undefined) return `${field}: ${issue.message}`;
      return branch
        .map((inner) => formatIssue({ ...inner, path: [...issue.path, ...inner.path] }))
        .join("; ");
    }
    default:
      return `${field}: ${issue.message}`;
  }
}

/** The union branch the value evidently meant: the one whose problems all lie deepest inside it. */
function deepestBranch(branches: z.core.$ZodIssue[][]): z.core.$ZodIssue[] | undefined {
  const depth = (b: z.core.$ZodIssue[]) => (b.length === 0 ? 0 : Math.min(...b.map((i) => i.path.length)));
  const best = [...branches].sort((x, y) => depth(y) - depth(x))[0];
  return best !== undefined && depth(best) > 0 ? best : undefined;
}

/** A field name as a message shows it: bare when plain, quoted (and cut) when it is empty or odd. */
function fieldName(key: string): string {
  return /^[\w.$-]{1,64}$/.test(key) ? key : JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function echo(input: unknown): string {
  if (typeof input !== "string") return input === undefined ? "" : ` (got ${describe(input)})`;
  const shown = input.length > 64 ? `${input.slice(0, 64)}…` : input;
  return ` (got ${JSON.stringify(shown)})`;
}

/**
 * V8's reason without the excerpt of the input it quotes (`Unexpected token 'h', "…hunter2…" is
 * not valid JSON`): an error message must never echo a body or file that may hold a password, a
 * key or a script.
 */
export function jsonSyntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.replace(/,?\s*(\.\.\.)?"[\s\S]*"(\.\.\.)?\s+is not valid JSON$/, "").trim();
  return reason === "" ? "unexpected input" : reason;
}
