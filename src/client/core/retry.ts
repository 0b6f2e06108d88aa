/**
 * When to send a request again. `decideRetry` is a pure function of the failure, the attempt number
 * and injected randomness; `runWithRetries` applies it with injected `sleep`, so tests run in
 * milliseconds and never flake.
 *
 * Retried: connection failures, timeouts, 408, 429 and 5xx. Every other status is final.
 *
 * A non-idempotent request (creating a machine or a script) is never sent again blindly once it
 * may have reached the server. Failures are split in two:
 * - **safe**: the server cannot have acted: connection refused or host not found (nothing was
 *   sent), 408 (the server gave up reading the request), 429 (refused by the rate limiter before
 *   the handler) and 503 (the service sheds load before processing). These are retried for every
 *   request.
 * - **ambiguous**: 500, 502, 504, a timeout, a reset or a dropped response: the server may have
 *   acted. An idempotent request is retried; a non-idempotent one only when the caller supplied a
 *   way to find what the first attempt created (`lookup`) or to recognise it on the next attempt
 *   (`afterAmbiguous`, e.g. a 409 for a script name that now exists). Otherwise it fails.
 */
import { AbortedError, ConnectionError, TimeoutError, VmApiError } from "./errors";
import { notify } from "./notify";

/** Tunables of the retry policy. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  /** Delay before the first retry, before jitter. */
  initialDelayMs: number;
  /** Cap of the exponential backoff. */
  maxDelayMs: number;
  /** A longer `Retry-After` is not waited for: the error is returned to the caller instead. */
  maxRetryAfterMs: number;
  /**
   * Retries after failures that found nobody to answer (connection refused, no route, a timeout);
   * default `maxRetries`. A caller that must fail fast when the API is down (a preview) sets it
   * low and still rides out a busy server's 429s and 503s, and a connection the server reset
   * (it was reached: a transient failure, retried as any other).
   */
  maxUnansweredRetries?: number;
}

/** The policy used when the client is not given one. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 3,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
});

/** How a failure bears on retrying. */
export type FailureKind = "safe" | "ambiguous" | "final";

/** What the policy needs to know about one failed attempt. */
export interface FailureFacts {
  kind: FailureKind;
  /** The server's `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
  /** Nobody answered: the connection was refused or found no route, or the request timed out. */
  unanswered?: true;
}

/** What the caller of `decideRetry` knows about the request. */
export interface RetryContext {
  /** Retries already made (0 after the first attempt failed). */
  retriesDone: number;
  /** Sending the request twice has the effect of sending it once. */
  idempotent: boolean;
  /** A non-idempotent request whose earlier effect can be found (a lookup or a recognisable conflict). */
  guarded: boolean;
}

/** The policy's answer: send again after `delayMs`, look for the earlier effect first, or stop. */
export type RetryDecision =
  | { action: "retry"; delayMs: number }
  | { action: "lookup-then-retry"; delayMs: number }
  | { action: "stop"; reason: string };

const SAFE_STATUSES = new Set([408, 429, 503]);

/** Classifies an error of the client for the policy. Aborts and client-side refusals are final. */
export function classifyFailure(error: unknown): FailureFacts {
  if (error instanceof AbortedError) return { kind: "final" };
  if (error instanceof ConnectionError) {
    // A reset or hang-up means the server was there; only silence says the API is down.
    const silent = error instanceof TimeoutError || !error.requestMayHaveReachedServer;
    const kind = error.requestMayHaveReachedServer ? "ambiguous" : "safe";
    return silent ? { kind, unanswered: true } : { kind };
  }
  if (!(error instanceof VmApiError) || error.status === undefined) return { kind: "final" };
  // A server that says when to come back is heard on every retried answer, not only on 429.
  const retryAfterMs = error.retryAfterMs;
  const withDelay = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (SAFE_STATUSES.has(error.status)) return { kind: "safe", ...withDelay };
  if (error.status >= 500) return { kind: "ambiguous", ...withDelay };
  return { kind: "final" };
}

/**
 * Pure: whether and when to retry. `random` returns a number in [0, 1) and only shortens the
 * delay (by up to a quarter), so concurrent clients spread out without ever waiting past the cap.
 */
export function decideRetry(
  failure: FailureFacts,
  context: RetryContext,
  policy: RetryPolicy,
  random: () => number,
): RetryDecision {
  if (failure.kind === "final") return { action: "stop", reason: "not retryable" };
  if (context.retriesDone >= policy.maxRetries) return { action: "stop", reason: "retries exhausted" };
  const unansweredCap = policy.maxUnansweredRetries ?? policy.maxRetries;
  if (failure.unanswered && context.retriesDone >= unansweredCap) {
    return {
      action: "stop",
      reason: `no answer after ${unansweredCap} ${unansweredCap === 1 ? "retry" : "retries"}`,
    };
  }
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs) {
    return { action: "stop", reason: `Retry-After ${failure.retryAfterMs} ms exceeds the cap` };
  }
  const delayMs = failure.retryAfterMs ?? backoffDelay(context.retriesDone, policy, random);
  if (failure.kind === "safe" || context.idempotent) return { action: "retry", delayMs };
  if (context.guarded) return { action: "lookup-then-retry", delayMs };
  return { action: "stop", reason: "the server may have acted on a non-idempotent request" };
}

/** Pure: capped exponential backoff with jitter for the retry after `retriesDone` retries. */
export function backoffDelay(retriesDone: number, policy: RetryPolicy, random: () => number): number {
  const exponential = policy.initialDelayMs * 2 ** retriesDone;
  const capped = Math.min(policy.maxDelayMs, exponential);
  return Math.round(capped * (1 - 0.25 * random()));
}

/**
 * Pure: `Retry-After` as milliseconds, from delta-seconds or an HTTP date (relative to `nowMs`).
 * Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Pure: the server's requested delay from response headers (lower-case names): `retry-after-ms`
 * first (milliseconds, as Stainless clients read it), else `Retry-After`. Undefined when neither
 * is readable.
 */
export function retryAfterFromHeaders(
  headers: Readonly<Record<string, string | undefined>>,
  nowMs: number,
): number | undefined {
  const ms = headers["retry-after-ms"]?.trim();
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  return parseRetryAfter(headers["retry-after"], nowMs);
}

/**
 * When to wait and for how long: a clock, a sleep and the randomness of jitter, injected so that
 * tests control them (the client's `sleep`/`now`/`random` options). Named apart from the
 * emulator's `Clock`, which is a different thing: the server's own time.
 */
export interface Timing {
  /** Resolves after `ms`; rejects (or resolves early) when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** A number in [0, 1). */
  random: () => number;
}

/** What a lookup is told: the ambiguous failure it follows and when that attempt was sent. */
export interface LookupContext {
  /** The failure after which the server may have acted. */
  error: VmApiError;
  /** `Timing.now()` just before the failed attempt was sent. */
  sentAtMs: number;
}

/** How `runWithRetries` may repeat one request. */
export interface RetryOptions<T> {
  policy: RetryPolicy;
  timing: Timing;
  idempotent: boolean;
  signal?: AbortSignal;
  /**
   * After an ambiguous failure: finds what the earlier attempt created, or undefined. It may take
   * its time (poll while that attempt can still take effect): nothing is sent again meanwhile.
   */
  lookup?: (context: LookupContext) => Promise<T | undefined>;
  /**
   * When an attempt that follows an ambiguous failure fails: `{ value }` if that error proves the
   * earlier attempt succeeded (e.g. 409 for a script name that now exists), else undefined.
   */
  afterAmbiguous?: (error: VmApiError) => Promise<{ value: T } | undefined>;
  /** Told of each retry, for a debug log. */
  onRetry?: (error: VmApiError, decision: RetryDecision, retriesDone: number) => void;
}

/** Runs `attempt` until it succeeds or the policy stops; throws the last error. */
export async function runWithRetries<T>(attempt: () => Promise<T>, options: RetryOptions<T>): Promise<T> {
  const guarded = options.lookup !== undefined || options.afterAmbiguous !== undefined;
  let sawAmbiguous = false;
  for (let retriesDone = 0; ; retriesDone++) {
    const sentAtMs = options.timing.now();
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof VmApiError)) throw error;
      if (sawAmbiguous && options.afterAmbiguous) {
        const proven = await options.afterAmbiguous(error);
        if (proven) return proven.value;
      }
      const failure = classifyFailure(error);
      const context = { retriesDone, idempotent: options.idempotent, guarded };
      const decision = decideRetry(failure, context, options.policy, options.timing.random);
      if (failure.kind === "ambiguous") sawAmbiguous = true;
      if (decision.action === "stop") {
        if (failure.kind === "ambiguous" && !options.idempotent && options.lookup) {
          // Out of retries, but the first attempt may have worked: report what it made, if anything.
          const found = await lookupOr(options.lookup, { error, sentAtMs });
          if (found !== undefined) return found;
        }
        throw error;
      }
      notify(options.onRetry, error, decision, retriesDone);
      await abortableSleep(options.timing, decision.delayMs, options.signal);
      if (decision.action === "lookup-then-retry" && options.lookup) {
        const found = await lookupOr(options.lookup, { error, sentAtMs });
        if (found !== undefined) return found;
      }
    }
  }
}

/**
 * Runs a lookup; if it fails (other than by abort), the caller gets the original, ambiguous error:
 * "the create may have happened" says more than the failure of the list that tried to find out.
 */
async function lookupOr<T>(
  lookup: (context: LookupContext) => Promise<T | undefined>,
  context: LookupContext,
): Promise<T | undefined> {
  try {
    return await lookup(context);
  } catch (error) {
    if (error instanceof AbortedError) throw error;
    throw context.error;
  }
}

/** Sleeps with the injected `sleep`, but rejects with `AbortedError` as soon as `signal` aborts. */
export async function abortableSleep(timing: Timing, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return timing.sleep(ms);
  throwIfAborted(signal);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AbortedError());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([timing.sleep(ms, signal), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
  throwIfAborted(signal);
}

/** Throws `AbortedError` when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortedError();
}

/** The real clock: `setTimeout` that clears itself on abort. */
export const realTiming: Timing = {
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
  now: () => Date.now(),
  random: () => Math.random(),
};

/**
 * The clock `given` names, with the real one for any part it leaves out: a test hands in its
 * `sleep` and `now`, a program nothing.
 */
export function timingOf(given: Partial<Timing> = {}): Timing {
  return {
    sleep: given.sleep ?? realTiming.sleep,
    now: given.now ?? realTiming.now,
    random: given.random ?? realTiming.random,
  };
}
