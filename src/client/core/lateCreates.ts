/**
 * What the creates share about answers that come late or never: a create is given
 * `createTimeoutMs` to take effect. Its answer is waited for that long on the open connection
 * (with a notice now and then, so a caller can show it is waiting, not stuck), and after a
 * failure the API may still act on, nothing is sent again before that long after it was sent.
 */
import { AbortedError, ConnectionError, VmApiError } from "./errors";
import { abortableSleep, type LookupContext, type Timing } from "./retry";

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

/** What `lookForLateCreate` needs besides the failure it follows. */
export interface LateCreateSearch<T extends { id: string }> extends LookupContext {
  /** What is created, for progress lines: "machine". */
  kind: string;
  /** Its name, for progress lines. */
  name: string;
  /** Everything this call can prove it made, oldest first. */
  find: () => Promise<T[]>;
  timing: Timing;
  createTimeoutMs: number;
  say: (message: string) => void;
  signal?: AbortSignal;
}

/**
 * After an ambiguous failure of a create: what it made, looked for until it can no longer appear
 * (`createTimeoutMs` after the attempt was sent, or at once when the server answered), and taken
 * as soon as it does. Undefined when there is none: sending again then cannot make a second one.
 * Several matches (a create that took effect later than its window, after a resend) are named,
 * and only the oldest is taken: the others may be someone else's.
 */
export async function lookForLateCreate<T extends { id: string }>(
  search: LateCreateSearch<T>,
): Promise<T | undefined> {
  const { kind, timing, createTimeoutMs, say, error } = search;
  const what = `${kind} ${search.name}`;
  const lost = `the answer to the create of ${what} was lost (${error.message})`;
  const deadline = mayStillAct(error) ? search.sentAtMs + createTimeoutMs : timing.now();
  for (let looked = 0; ; looked++) {
    const found = await search.find().catch((failure: unknown) => {
      // A list that fails while the machine may still come is tried again at the next look;
      // giving up here would leave one that lands later to nobody.
      if (failure instanceof AbortedError || timing.now() >= deadline) throw failure;
      return undefined;
    });
    if (found !== undefined && found.length > 0) {
      const [made, ...others] = found;
      say(`${lost}, and it made ${kind} ${made.id}: taking it instead of creating another`);
      if (others.length > 0) {
        const ids = others.map((m) => m.id).join(", ");
        say(`${what}: ${ids} also match what was sent and may be from this call: not touched, check them`);
      }
      return made;
    }
    const remainingMs = deadline - timing.now();
    if (remainingMs <= 0) {
      const within = looked > 0 ? ` within ${formatDuration(createTimeoutMs)} of sending it` : "";
      say(`${lost}, and nothing came of it${within}`);
      return undefined;
    }
    if (looked === 0) {
      say(
        `${lost}; the API may still act on it: looking for what it makes for up to ${formatDuration(remainingMs)} before sending it again`,
      );
    }
    const pause = Math.min(lateCreateCadenceMs(createTimeoutMs), remainingMs);
    await abortableSleep(timing, pause, search.signal);
  }
}
