/**
 * Progress of long waits, visible in `pulumi up`. The engine shows a dynamic provider's
 * `pulumi.log` messages in the update's diagnostics; without an engine (tests, scripts) the
 * SDK prints them to the console.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RetryNotice } from "../client/http";

/** Reports one line; injected so tests can collect progress. */
export type ProgressSink = (message: string) => void;

/** The default sink: an info diagnostic. Failures to log never fail the operation. */
export const engineProgress: ProgressSink = (message) => {
  void Promise.resolve(pulumi.log.info(message)).catch(() => undefined);
};

/**
 * A warning diagnostic: what the user must read before saying yes (e.g. a replacement that loses
 * a machine's disk). Failures to log never fail the operation.
 */
export const engineWarning: ProgressSink = (message) => {
  void Promise.resolve(pulumi.log.warn(message)).catch(() => undefined);
};

/** "12 s", "3 min 05 s": elapsed time as a person reads it. */
export function formatElapsed(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/**
 * Turns the client's retry notices into progress lines, so an `up` against an API that is down
 * says it is retrying instead of staying silent for a minute.
 */
export function retryReporter(sink: ProgressSink): (notice: RetryNotice) => void {
  return ({ method, path, error, retry, maxRetries, delayMs }) =>
    sink(
      `vmapi: ${method} ${path} failed (${error.message}); retry ${retry} of ${maxRetries} in ${formatDelay(delayMs)}`,
    );
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
