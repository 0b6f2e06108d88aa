/**
 * Progress of long waits, visible in `pulumi up`. The engine shows a dynamic provider's
 * `pulumi.log` messages in the update's diagnostics; without an engine (tests, scripts) the
 * SDK prints them to the console.
 */
import type * as Pulumi from "@pulumi/pulumi";
import type { RetryNotice } from "../../client/core/http";
import type { ThrottleNotice } from "../../client/core/rateLimiter";
import { notify } from "../../client/core/notify";

/**
 * The SDK's `pulumi.log`, loaded on first use: a dynamic provider has the SDK loaded anyway, and
 * the native plugin, which reports through the engine's own log service, starts without it.
 */
let sdkLog: typeof Pulumi.log | undefined;
function pulumiLog(): typeof Pulumi.log {
  sdkLog ??= (require("@pulumi/pulumi") as typeof Pulumi).log;
  return sdkLog;
}

/** Reports one line; injected so tests can collect progress. */
export type ProgressSink = (message: string) => void;

/** The default sink: an info diagnostic. Failures to log never fail the operation. */
export const engineProgress: ProgressSink = (message) => {
  notify(() => void Promise.resolve(pulumiLog().info(message)).catch(() => undefined));
};

/**
 * A warning diagnostic: what the user must read before saying yes (e.g. a replacement that loses
 * a machine's disk). Failures to log never fail the operation.
 */
export const engineWarning: ProgressSink = (message) => {
  notify(() => void Promise.resolve(pulumiLog().warn(message)).catch(() => undefined));
};

/** "12 s", "3 min 05 s": elapsed time as a person reads it. */
export function formatElapsed(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/**
 * Turns the client's retry notices into progress lines, so an `up` against an API that is down
 * says it is retrying instead of staying silent for a minute. A 429 is left to
 * `throttleReporter`: the account's limiter says it once for every caller it holds, where 200
 * callers would otherwise print 200 lines.
 */
export function retryReporter(sink: ProgressSink): (notice: RetryNotice) => void {
  return ({ method, path, error, retry, maxRetries, delayMs }) => {
    if (error.status === 429) return;
    sink(
      `vmapi: ${method} ${path} failed (${error.message}); retry ${retry} of ${maxRetries} in ${formatDelay(delayMs)}`,
    );
  };
}

/**
 * Turns the account limiter's notices into progress lines: that the API throttles, how long
 * every request of the account waits, and the rate the provider goes at afterwards.
 */
export function throttleReporter(sink: ProgressSink, baseUrl: string): (notice: ThrottleNotice) => void {
  return ({ status, waitMs, ratePerSecond, waiting }) => {
    const what =
      status === 429
        ? `the API at ${baseUrl} is throttling this account (HTTP 429)`
        : `the API at ${baseUrl} asked this account to wait (HTTP ${status})`;
    const wait = waitMs > 0 ? `every request waits ${formatDelay(waitMs)}` : "requests slow down";
    const rate = Number.isFinite(ratePerSecond)
      ? `, then goes at ≤ ${formatRate(ratePerSecond)} requests/s`
      : "";
    const queued = waiting > 0 ? ` (${waiting} waiting)` : "";
    sink(`vmapi: ${what}: ${wait}${rate}${queued}`);
  };
}

function formatRate(perSecond: number): string {
  return perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
