/**
 * The resource options as a `Call` carries them: the operation's bound (`customTimeouts`), which
 * an implementation honours as the deadline of its waits, and `replaceOnChanges`, which the
 * serving layer (serving.ts) applies to `diff` as replacements, with a `check` failure for a path
 * that names no input (both written here). Each door turns what it was
 * given into these (the plugin from the engine's request; the TypeScript door from the options
 * its classes carry as internal inputs, dynamic/internalInputs.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { AbortedError, WaitTimeoutError } from "../../client/core/errors";
import { OperationTimeoutError } from "./errors";

/** The operations `customTimeouts` can bound. */
export type Operation = "create" | "update" | "delete";

/** A deadline for one operation, and the words that say where it came from. */
export interface Bound {
  ms: number;
  /** E.g. `customTimeouts.create (5s)`, `waitTimeoutSeconds (600)`. */
  label: string;
}

/**
 * The `customTimeouts` bound of `operation`, as both doors read it: `ms` as the door decoded it
 * (none, or not positive: no bound), named as the program or the engine wrote it (`written`).
 */
export function boundOf(operation: Operation, ms: number | undefined, written: string): Bound | undefined {
  return ms === undefined || !(ms > 0)
    ? undefined
    : { ms, label: `customTimeouts.${operation} (${written})` };
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

/** Runs `operation` within `bound` when there is one (the operation's `customTimeouts`), else unbounded. */
export function withinTimeout<T>(
  bound: Bound | undefined,
  operation: (signal?: AbortSignal) => Promise<T>,
): Promise<T> {
  return bound ? withinBound(bound, operation) : operation();
}

/**
 * The failure for `replaceOnChanges` paths (`paths`) that name no input of `kind`, whose inputs are
 * `inputNames`; none when every path names one (or is "*").
 */
export function replaceOnChangesFailures(
  paths: readonly string[],
  inputNames: readonly string[],
  kind: string,
): pulumi.dynamic.CheckFailure[] {
  const unknown = paths.filter((path) => path !== "*" && !inputNames.includes(topKey(path)));
  if (unknown.length === 0) return [];
  return [
    {
      property: "",
      reason: `replaceOnChanges names ${unknown.map((p) => JSON.stringify(p)).join(", ")}, not an input of ${kind}; its inputs: ${inputNames.join(", ")} (or "*")`,
    },
  ];
}

/**
 * `diff` with `replaceOnChanges` (`paths`) applied: every changed input a path names (or all, for
 * "*") replaces. `changed` are the inputs the implementation found changed.
 */
export function withReplaceOnChanges<D extends pulumi.dynamic.DiffResult>(
  diff: D,
  changed: readonly string[],
  paths: readonly string[],
): D {
  if (paths.length === 0) return diff;
  const named = changed.filter((key) => paths.some((path) => path === "*" || topKey(path) === key));
  if (named.length === 0) return diff;
  return { ...diff, changes: true, replaces: [...new Set([...(diff.replaces ?? []), ...named])] };
}

/** The input a property path starts at: `tags.env` → `tags`, `machineIds[0]` → `machineIds`. */
function topKey(path: string): string {
  return path.split(/[.[]/, 1)[0];
}
