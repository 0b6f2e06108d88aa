/**
 * The provider's side of resourceOptions.ts: `customTimeouts` as deadlines of an operation's
 * waits, `replaceOnChanges` as replacements in `diff`, and `check` failures for either written
 * wrong (named as the user wrote them, never as the internal input).
 */
import type * as pulumi from "@pulumi/pulumi";
import { AbortedError, WaitTimeoutError } from "../../client/core/errors";
import { OperationTimeoutError } from "./errors";
import type { EngineProps } from "./resourceImplementation";
import { UNKNOWN } from "./unknown";
import type { TimeoutInputs } from "./internalInputs";

/** The operations `customTimeouts` can bound. */
export type Operation = keyof TimeoutInputs;

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;

/** Milliseconds of a duration in the engine's syntax (Go's `time.ParseDuration`: "30s", "1h30m", "1.5m"); undefined if malformed. */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  if (text === "0") return 0;
  DURATION_PART.lastIndex = 0;
  let ms = 0;
  while (DURATION_PART.lastIndex < text.length) {
    const at = DURATION_PART.lastIndex;
    const part = DURATION_PART.exec(text);
    if (part === null || part.index !== at) return undefined;
    ms += Number(part[1]) * UNIT_MS[part[2]];
  }
  return ms;
}

/** A deadline for one operation, and the words that say where it came from. */
export interface Bound {
  ms: number;
  /** E.g. `customTimeouts.create (5s)`, `waitTimeoutSeconds (600)`. */
  label: string;
}

/** The `customTimeouts` bound of `operation`, when the resource has one. */
export function customTimeout(inputs: EngineProps, operation: Operation): Bound | undefined {
  const written = (inputs.__customTimeouts as TimeoutInputs | undefined)?.[operation];
  const ms = parseDuration(written);
  return ms === undefined || ms <= 0 ? undefined : { ms, label: `customTimeouts.${operation} (${written})` };
}

/** The tightest of `bounds` (the ones given). */
export function tightest(...bounds: Array<Bound | undefined>): Bound {
  const given = bounds.filter((b): b is Bound => b !== undefined);
  return given.reduce((a, b) => (b.ms < a.ms ? b : a));
}

/**
 * `err` restated as the bound that ran out (an `OperationTimeoutError` whose `cause` is `err`), when
 * the wait ran out of time or was aborted by it; any other error as it is.
 */
export function explainTimeout(err: unknown, bound: Bound): unknown {
  if (!(err instanceof WaitTimeoutError || err instanceof AbortedError)) return err;
  return new OperationTimeoutError(bound, err);
}

/**
 * Runs `operation` with a signal that aborts when `bound` runs out (a request in flight is
 * abandoned then, not just the wait between polls).
 */
export async function withinBound<T>(
  bound: Bound,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), bound.ms);
  timer.unref();
  try {
    return await operation(controller.signal);
  } catch (err) {
    throw explainTimeout(err, bound);
  } finally {
    clearTimeout(timer);
  }
}

/** Failures of `customTimeouts` and `replaceOnChanges` as written, for a resource with `inputNames`. */
export function optionFailures(
  inputs: EngineProps,
  inputNames: readonly string[],
  kind: string,
): pulumi.dynamic.CheckFailure[] {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const timeouts = (inputs.__customTimeouts ?? {}) as EngineProps;
  for (const [operation, written] of Object.entries(timeouts)) {
    const ms = parseDuration(written);
    if (ms === undefined || ms <= 0)
      failures.push({
        property: "",
        reason: `customTimeouts.${operation} must be a positive duration such as "30s", "5m" or "1h30m" (got ${JSON.stringify(written)})`,
      });
  }
  const unknown = replaceOnChangesOf(inputs).filter(
    (path) => path !== "*" && !inputNames.includes(topKey(path)),
  );
  if (unknown.length > 0)
    failures.push({
      property: "",
      reason: `replaceOnChanges names ${unknown.map((p) => JSON.stringify(p)).join(", ")}, not an input of ${kind}; its inputs: ${inputNames.join(", ")} (or "*")`,
    });
  return failures;
}

/**
 * `diff` with `replaceOnChanges` applied: every changed input the option names (or all, for "*")
 * replaces. `changed` are the inputs the provider found changed.
 */
export function withReplaceOnChanges(
  diff: pulumi.dynamic.DiffResult,
  changed: readonly string[],
  news: EngineProps,
): pulumi.dynamic.DiffResult {
  const paths = replaceOnChangesOf(news);
  if (paths.length === 0) return diff;
  const named = changed.filter((key) => paths.some((path) => path === "*" || topKey(path) === key));
  if (named.length === 0) return diff;
  return { ...diff, changes: true, replaces: [...new Set([...(diff.replaces ?? []), ...named])] };
}

function replaceOnChangesOf(inputs: EngineProps): string[] {
  const value = inputs.__replaceOnChanges;
  if (value === UNKNOWN || !Array.isArray(value)) return [];
  return value.filter((p): p is string => typeof p === "string");
}

/** The input a property path starts at: `tags.env` → `tags`, `machineIds[0]` → `machineIds`. */
function topKey(path: string): string {
  return path.split(/[.[]/, 1)[0];
}
