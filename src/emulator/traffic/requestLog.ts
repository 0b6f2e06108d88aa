/**
 * The recent requests, for the console: a ring of the last `capacity` entries, so its memory is
 * fixed however long the emulator runs, and recording one costs a write into a preallocated slot
 * (no allocation beyond the entry, no copy, nothing formatted). An entry holds what the stderr
 * log line holds, plus who called (a label that is never a key) and whether a fault or the rate
 * limit answered; never a body, a header or a key.
 */

/** What answered a request, when it was not the route. */
export type RequestMark = "fault" | "throttled";

/** One finished request, as the console shows it. */
export interface RequestEntry {
  /** 1, 2, 3, ... in the order requests finished, never reused (a reset keeps counting). */
  seq: number;
  /** When it finished, on the emulator's clock (epoch ms). */
  at: number;
  method: string;
  /** The route template, or the sanitized path when no route matched (as the stderr log shows it). */
  route: string;
  /** The status answered, or `reset` / `dropped` when a fault cut the connection instead. */
  status: number | "reset" | "dropped";
  /** Milliseconds from arrival to answer. */
  ms: number;
  /**
   * Who called: a user id, `delegation <id>`, `unknown key`, `no key`, or `control` for
   * `/_emulator/*`; null when the request failed before it was known (an unparsable request).
   */
  caller: string | null;
  /** `fault`: an injected fault answered (or cut) it; `throttled`: the rate limit refused it (429). */
  mark?: RequestMark;
  /** With `fault`: a scripted rule or a seeded random fault. */
  faultSource?: "rule" | "random";
}

/** What a request adds to the log; `seq` and `at` are the log's. */
export type RequestRecord = Omit<RequestEntry, "seq" | "at">;

/** The default number of entries kept. */
export const REQUEST_LOG_CAPACITY = 1_000;

/** A bounded log of finished requests, oldest overwritten first. */
export class RequestLog {
  private readonly ring: (RequestEntry | undefined)[];
  private next = 1;

  /** `now`: the emulator's clock. */
  constructor(
    private readonly now: () => number,
    readonly capacity = REQUEST_LOG_CAPACITY,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be an integer >= 1 (got ${capacity})`);
    this.ring = new Array<RequestEntry | undefined>(capacity);
  }

  /** The seq the next entry will get: every entry so far has a smaller one. */
  get nextSeq(): number {
    return this.next;
  }

  /** Adds one finished request, overwriting the oldest when full. */
  record(request: RequestRecord): void {
    const seq = this.next++;
    this.ring[seq % this.capacity] = { seq, at: this.now(), ...request };
  }

  /** The entries kept whose seq is above `afterSeq`, oldest first (at most `capacity`). */
  since(afterSeq = 0): RequestEntry[] {
    const first = Math.max(afterSeq + 1, this.next - this.capacity, 1);
    const out: RequestEntry[] = [];
    for (let seq = first; seq < this.next; seq++) out.push(this.ring[seq % this.capacity]!);
    return out;
  }
}
