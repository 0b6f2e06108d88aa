/**
 * After an ambiguous failure of a machine's create: the machine it made, looked for in the
 * account's listings for as long as the create may still take effect. A machine's name is not
 * unique, so a resend after a lost answer could make a second one; a script's is, and its create
 * needs none of this (resources/scripts.ts).
 */
import { AbortedError } from "../../core/errors";
import { formatDuration, lateCreateCadenceMs, mayStillAct } from "../../core/createWindow";
import { abortableSleep, type LookupContext, type Timing } from "../../core/retry";

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
