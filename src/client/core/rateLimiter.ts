/**
 * One request budget shared by every caller of an account. Without it, 200 callers that meet a
 * rate limit each back off alone, come back together, and are refused together again; with it,
 * they queue in one line that learns the account's limit from the answers:
 *
 * - **slow down at once**: a 429 lowers the allowed rate to a little under (90 %) what the
 *   server let through over the last second, but not below half the rate it refused; once per
 *   round: a 429 to a request sent before the last slow-down says nothing new. And every
 *   `Retry-After`, on a 429 or any other answer, holds every caller of the account until it has
 *   passed.
 * - **speed up gently**: each answer that is not a refusal raises the rate by `increase / rate`,
 *   about `increase` (1) request/s per second of traffic: additive increase after a
 *   multiplicative decrease, as TCP does with its window. Taking the accepted rate as a floor
 *   keeps a stray 429 (one refused request among many accepted) from halving the pace of a
 *   whole fleet.
 *
 * Until the first refusal the rate is unlimited and a request waits for nothing. Callers are let
 * through in the order they asked, one by one, by a single pump that sleeps with the injected
 * clock: no timer runs when nobody waits, and tests drive it with a manual clock. Randomness is
 * not needed: one queue already spaces the callers out.
 */
import { AbortedError, ValidationError } from "./errors";
import { notify } from "./notify";
import { realTiming, throwIfAborted, type Timing } from "./retry";

/** A throttling episode, as `onThrottle` is told of it (once per hold or slow-down, not per caller). */
export interface ThrottleNotice {
  /** The HTTP status that carried it: 429, or e.g. 503 with a `Retry-After`. */
  status: number;
  /** How long every request of the account waits from now, in ms (0: no hold, only slower). */
  waitMs: number;
  /** The rate now allowed, in requests per second. */
  ratePerSecond: number;
  /** Requests queued behind the hold at this moment. */
  waiting: number;
}

/** What a limiter is built from; every field is optional. */
export interface RateLimiterOptions {
  /** Told when a hold starts or the rate goes down, e.g. to show that an operation is throttled. */
  onThrottle?: (notice: ThrottleNotice) => void;
  /** Lowest rate a slow-down goes to, in requests per second (default 0.5). */
  minRatePerSecond?: number;
  /** Deepest slow-down, as a factor of the refused rate, in (0, 1) (default 0.5). */
  decrease?: number;
  /** Requests/s regained per second of unrefused traffic (default 1). */
  increase?: number;
  /** Hold after a 429 without `Retry-After`, in ms (default 1000). */
  defaultHoldMs?: number;
  /** Longest hold a `Retry-After` imposes, in ms (default 60 000, the retry policy's cap). */
  maxHoldMs?: number;
  /** @internal Testing hook: the limiter's sleep (default: real). */
  sleep?: Timing["sleep"];
  /** @internal Testing hook: milliseconds since the epoch (default: real). */
  now?: Timing["now"];
}

/** A caller's turn: given by `acquire`, handed back to `settle` with the answer. */
export interface Permit {
  /** Order of the grant, to tell answers to requests sent before a slow-down from later ones. */
  readonly seq: number;
}

/** How a request ended, as far as the budget cares. */
export interface RequestOutcome {
  /** The HTTP status; undefined when no answer came (connection failure). */
  status?: number;
  /** The server's `Retry-After`, in ms. */
  retryAfterMs?: number;
}

interface Waiter {
  resolve: (permit: Permit) => void;
  reject: (error: unknown) => void;
  detach: () => void;
}

/** Answers counted for the accepted rate, over this window. */
const WINDOW_MS = 1000;
/** After a 429, the rate goes this far under what the server accepted. */
const UNDER_ACCEPTED = 0.9;

/** The shared budget of one account; see the module comment. Share one instance per account. */
export class RateLimiter {
  readonly #sleep: Timing["sleep"];
  readonly #now: Timing["now"];
  readonly #options: Required<Omit<RateLimiterOptions, "sleep" | "now" | "onThrottle">>;
  readonly #onThrottle: RateLimiterOptions["onThrottle"];
  #rate = Infinity;
  #heldUntil = -Infinity;
  #nextSlot = -Infinity;
  #granted = 0;
  #inFlight = 0;
  /** Grants before this one were sent before the last slow-down. */
  #decreasedAt = 0;
  #recentSuccesses: number[] = [];
  #queue: Waiter[] = [];
  #pumping = false;

  constructor(options: RateLimiterOptions = {}) {
    this.#sleep = options.sleep ?? realTiming.sleep;
    this.#now = options.now ?? realTiming.now;
    this.#onThrottle = options.onThrottle;
    this.#options = {
      minRatePerSecond: options.minRatePerSecond ?? 0.5,
      decrease: options.decrease ?? 0.5,
      increase: options.increase ?? 1,
      defaultHoldMs: options.defaultHoldMs ?? 1000,
      maxHoldMs: options.maxHoldMs ?? 60_000,
    };
    checkOptions(this.#options);
  }

  /** The rate now allowed, in requests per second; Infinity until the first refusal. */
  get ratePerSecond(): number {
    return this.#rate;
  }

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Requests let through and not yet settled. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Waits for this caller's turn; rejects with `AbortedError` when `signal` fires first. */
  async acquire(signal?: AbortSignal): Promise<Permit> {
    throwIfAborted(signal);
    const now = this.#now();
    if (this.#queue.length === 0 && now >= this.#heldUntil && now >= this.#nextSlot) return this.#grant(now);
    return new Promise<Permit>((resolve, reject) => {
      const onAbort = () => {
        this.#queue = this.#queue.filter((w) => w !== waiter);
        reject(new AbortedError());
      };
      const waiter: Waiter = {
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(waiter);
      void this.#pump();
    });
  }

  /**
   * Learns from the answer to a request sent with `permit`; call it once per permit, also when no
   * answer came (`{}`).
   */
  settle(permit: Permit, outcome: RequestOutcome): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    const now = this.#now();
    const { status, retryAfterMs } = outcome;
    if (status === 429) {
      this.#throttled(permit, now, retryAfterMs ?? this.#options.defaultHoldMs);
    } else if (status !== undefined && retryAfterMs !== undefined) {
      this.#hold(now, retryAfterMs, status, false);
    }
    if (status !== undefined && status !== 429 && status < 500) this.#succeeded(now);
  }

  #grant(now: number): Permit {
    const interval = Number.isFinite(this.#rate) ? 1000 / this.#rate : 0;
    this.#nextSlot = Math.max(this.#nextSlot, now) + interval;
    this.#inFlight += 1;
    return { seq: this.#granted++ };
  }

  /** Lets the queue through one by one, at the rate, after any hold; one pump at a time. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0) {
        const now = this.#now();
        const at = Math.max(this.#heldUntil, this.#nextSlot);
        // Re-checked after every sleep: a hold that arrived meanwhile stops the whole queue.
        if (at > now) {
          // Whole milliseconds: a clock that counts in them must see the sleep move it.
          await this.#sleep(Math.ceil(at - now));
          continue;
        }
        const waiter = this.#queue.shift() as Waiter;
        waiter.detach();
        waiter.resolve(this.#grant(now));
      }
    } catch (error) {
      for (const waiter of this.#queue.splice(0)) {
        waiter.detach();
        waiter.reject(error);
      }
    } finally {
      this.#pumping = false;
    }
  }

  #throttled(permit: Permit, now: number, retryAfterMs: number): void {
    const accepted = this.#acceptedRate(now);
    // Before any estimate, a 429 with nothing accepted around it (the account spent by someone
    // else, a stray refusal) says nothing about our rate: it only holds.
    const informative = Number.isFinite(this.#rate) || accepted > 0;
    // The refusals of one burst all arrive after the first slow-down: only requests sent
    // after it can say that the slower rate is still too fast.
    const fresh = permit.seq >= this.#decreasedAt && informative;
    if (fresh) {
      const refused = Number.isFinite(this.#rate) ? this.#rate : accepted;
      this.#rate = Math.max(
        this.#options.minRatePerSecond,
        refused * this.#options.decrease,
        Math.min(refused, accepted * UNDER_ACCEPTED),
      );
      this.#decreasedAt = this.#granted;
    }
    this.#hold(now, retryAfterMs, 429, fresh);
  }

  #hold(now: number, retryAfterMs: number, status: number, decreased: boolean): void {
    const until = now + Math.min(Math.max(0, retryAfterMs), this.#options.maxHoldMs);
    const wasHolding = this.#heldUntil > now;
    if (until > this.#heldUntil) this.#heldUntil = until;
    if ((!wasHolding && until > now) || decreased) {
      notify(this.#onThrottle, {
        status,
        waitMs: Math.max(0, this.#heldUntil - now),
        ratePerSecond: this.#rate,
        waiting: this.#queue.length,
      });
    }
  }

  #succeeded(now: number): void {
    this.#recentSuccesses.push(now);
    while (this.#recentSuccesses[0] <= now - WINDOW_MS) this.#recentSuccesses.shift();
    // About `increase` per second: one such step per answer, `rate` answers a second.
    if (Number.isFinite(this.#rate)) this.#rate += this.#options.increase / this.#rate;
  }

  /** What the server let through over the last second: the best estimate of its limit. */
  #acceptedRate(now: number): number {
    return this.#recentSuccesses.filter((t) => t > now - WINDOW_MS).length * (1000 / WINDOW_MS);
  }

  /** Nothing secret is held, but keep inspection short. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `RateLimiter { ratePerSecond: ${this.#rate}, waiting: ${this.#queue.length}, inFlight: ${this.#inFlight} }`;
  }
}

function checkOptions(o: Required<Omit<RateLimiterOptions, "sleep" | "now" | "onThrottle">>): void {
  const problems: string[] = [];
  if (!(o.minRatePerSecond > 0)) problems.push(`minRatePerSecond must be > 0 (got ${o.minRatePerSecond})`);
  if (!(o.decrease > 0 && o.decrease < 1)) problems.push(`decrease must be in (0, 1) (got ${o.decrease})`);
  if (!(o.increase > 0)) problems.push(`increase must be > 0 (got ${o.increase})`);
  if (!(o.defaultHoldMs >= 0)) problems.push(`defaultHoldMs must be >= 0 (got ${o.defaultHoldMs})`);
  if (!(o.maxHoldMs >= 0)) problems.push(`maxHoldMs must be >= 0 (got ${o.maxHoldMs})`);
  if (problems.length > 0) throw new ValidationError(`RateLimiter: ${problems.join("; ")}`);
}
