/**
 * Waiting until a deleted resource is gone (its show answers 404), with a bounded, backing-off
 * poll. Delete succeeds when the resource is gone; any other error ends the wait.
 */
import { NotFoundError } from "../client/errors";

export interface GoneOptions {
  /** Delay after the first show that still finds it (default 250 ms); doubles up to 10 s. */
  firstDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Polls `show` until it throws NotFoundError, or fails after `timeoutMs`. */
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
      if (err instanceof NotFoundError) return;
      throw err;
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 10_000);
  }
  throw new Error(`still present after ${Math.round(timeoutMs / 1000)} s (last state: ${last})`);
}
