/**
 * Deciding that a resource is gone. Machines are billed and hold people's work, so only a genuine
 * absence counts: a 404 status for the resource itself (`provesAbsence`), confirmed by a read.
 * A "not found" message under a 400, a 5xx, a timeout: the resource stays in the stack.
 */
import { provesAbsence } from "../client/errors";

export interface GoneOptions {
  /** Delay after the first show that still finds it (default 250 ms); doubles up to 10 s. */
  firstDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Polls `show` until it proves the resource absent, or fails after `timeoutMs`. */
export async function pollUntilGone(
  show: () => Promise<{ state?: string }>,
  timeoutMs: number,
  options: GoneOptions = {},
): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const started = now();
  let delay = options.firstDelayMs ?? 250;
  let last = "unknown";
  while (now() - started < timeoutMs) {
    try {
      last = (await show()).state ?? last;
    } catch (err) {
      if (provesAbsence(err)) return;
      throw err;
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 10_000);
  }
  throw new Error(`still present after ${Math.round(timeoutMs / 1000)} s (last state: ${last})`);
}

/**
 * After an action answered "not found": succeeds only when a read proves the resource absent.
 * If the read finds it, the claim was about something else (a network, a template, a proxy's
 * route) and the caller must keep the resource: throws saying so. Other read failures propagate.
 */
export async function confirmAbsent(show: () => Promise<object>, what: string, claim: Error): Promise<void> {
  let found: { state?: unknown };
  try {
    found = await show();
  } catch (err) {
    if (provesAbsence(err)) return;
    throw err;
  }
  const state = typeof found.state === "string" ? ` (state ${found.state})` : "";
  throw new Error(
    `${what} still exists${state} although the API answered: ${claim.message}; it stays in the stack`,
  );
}
