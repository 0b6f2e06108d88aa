/**
 * A create's window: what the creates share about answers that come late or never. A create is
 * given `createTimeoutMs` to take effect. Its answer is waited for that long on the open
 * connection (with a notice now and then, so a caller can show it is waiting, not stuck), and
 * after a failure the API may still act on, nothing is sent again before that long after it was
 * sent (what is done meanwhile is the resource's: a machine is looked for,
 * resources/machine/lateCreates.ts; a script's name makes a resend safe, resources/scripts.ts).
 */
import { ConnectionError, type VmApiError } from "./errors";
import type { RequestSpec } from "./http";

/** Notices while waiting and lookups within the window come this many times per window. */
const NOTICES_PER_WINDOW = 30;

/** How often to say "still waiting" and to look again: 20 s for the default 10 min window. */
export function lateCreateCadenceMs(createTimeoutMs: number): number {
  return Math.max(1, Math.round(createTimeoutMs / NOTICES_PER_WINDOW));
}

/**
 * Pure: whether the request may still be acted on after this failure. Silence (a timeout, a reset
 * or a dropped connection) and a gateway's 502/504 say nothing of the server behind them, which
 * may be working on it still. Any other answer came from the server once it was done with it:
 * what it made exists by then, so one lookup is enough.
 */
export function mayStillAct(error: VmApiError): boolean {
  if (error instanceof ConnectionError) return error.requestMayHaveReachedServer;
  return error.status === 502 || error.status === 504;
}

/** "350 ms", "35 s", "1.5 min": a duration as a progress line shows it. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 6000) / 10} min`;
}

/** The line of a create still waiting for its answer. */
export function stillWaitingLine(what: string, elapsedMs: number, createTimeoutMs: number): string {
  return (
    `no answer to the create of ${what} yet after ${formatDuration(elapsedMs)}; waiting for it ` +
    `(up to ${formatDuration(createTimeoutMs)}) rather than sending it again, which could make a second one`
  );
}

/**
 * How a create's request waits for its answer: for `createTimeoutMs`, saying now and then that it
 * still waits for the create of `what` (`machine build-1`), never that it is stuck.
 */
export function createWaiting(
  what: string,
  createTimeoutMs: number,
  say: (message: string) => void,
): Pick<RequestSpec<unknown>, "timeoutMs" | "waitingEveryMs" | "onWaiting"> {
  return {
    timeoutMs: createTimeoutMs,
    waitingEveryMs: lateCreateCadenceMs(createTimeoutMs),
    onWaiting: (elapsedMs) => say(stillWaitingLine(what, elapsedMs, createTimeoutMs)),
  };
}
