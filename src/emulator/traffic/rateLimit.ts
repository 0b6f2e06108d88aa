/**
 * Throttling as a real API does it: one token bucket per API key, refilled from the emulator's
 * clock when a request arrives (never by a timer), so a manual clock drives it in tests. Past
 * the bucket, a request is refused with 429 `rate_limited` and a `Retry-After` in whole seconds,
 * before the handler runs (it changes nothing). Off unless `--rate-limit` or
 * `POST /_emulator/rate-limit` turns it on. Counts are kept per caller under a label that is
 * never the key (model/auth.ts `callerLabel`): the user's id, `delegation <id>`, or `unknown key` / `no key`.
 */
import { z } from "zod";
import { ApiError } from "../model/apiError";

/** A limit: `rate` requests per second per key, up to `burst` at once. */
export interface RateLimitSetting {
  rate: number;
  burst: number;
}

/** Body of `POST /_emulator/rate-limit`: `rate` null turns throttling off. */
export const RateLimitRequestSchema = z.strictObject({
  rate: z.number().positive().max(1_000_000).nullable(),
  burst: z.number().int().min(1).max(1_000_000).optional(),
});

/** The burst when none is given: one second's worth of the rate, at least 1. */
export function defaultBurst(rate: number): number {
  return Math.max(1, Math.ceil(rate));
}

/** A setting from a rate and an optional burst; null (off) when there is no rate. */
export function rateLimitSetting(rate: number | null | undefined, burst?: number): RateLimitSetting | null {
  if (rate === null || rate === undefined) return null;
  return { rate, burst: burst ?? defaultBurst(rate) };
}

/** Float error must not refuse a token that time has fully refilled (5/s over 200 ms). */
const EPSILON = 1e-9;

/**
 * A token bucket on a caller's clock: `burst` tokens at first, refilled at `rate` per second
 * from the time passed between two `take`s. Pure apart from its own two numbers.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly setting: RateLimitSetting,
    now: number,
  ) {
    this.tokens = setting.burst;
    this.last = now;
  }

  /** Takes one token at `now`; when there is none, how long until there is (ms, > 0). */
  take(now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    // A real clock that steps back must not mint tokens: time only counts forward.
    if (now > this.last) {
      const refill = ((now - this.last) * this.setting.rate) / 1000;
      this.tokens = Math.min(this.setting.burst, this.tokens + refill);
      this.last = now;
    }
    if (this.tokens >= 1 - EPSILON) {
      this.tokens = Math.max(0, this.tokens - 1);
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil(((1 - this.tokens) * 1000) / this.setting.rate) };
  }
}

/** Requests let through and refused, in all or for one caller. */
export interface RateCounts {
  served: number;
  refused: number;
}

/** What `GET /_emulator/rate-limit` and the state dump show. */
export interface RateLimitView extends RateCounts {
  rate: number | null;
  burst: number | null;
  /** Per caller label (user id, `delegation <id>`, `unknown key`, `no key`); never a key. */
  perKey: Record<string, RateCounts>;
}

/** The limits of one emulator: the setting, one bucket per caller, the counts. */
export class RateLimits {
  private setting: RateLimitSetting | null;
  private buckets = new Map<string, TokenBucket>();
  private counts = new Map<string, RateCounts>();

  /** `initial`: the start-up setting, which a reset returns to (null: off). */
  constructor(private readonly initial: RateLimitSetting | null) {
    this.setting = initial;
  }

  /** Changes the limit at run time; every bucket starts full under the new one. */
  set(setting: RateLimitSetting | null): void {
    this.setting = setting;
    this.buckets.clear();
  }

  /** Back to the start-up setting, with full buckets and no counts. */
  reset(): void {
    this.set(this.initial);
    this.counts.clear();
  }

  /**
   * Admits one request of `caller` at `now`, or returns the 429 that refuses it. The request
   * is counted either way.
   */
  admit(caller: string, now: number): ApiError | null {
    const counts = this.countsOf(caller);
    const setting = this.setting;
    const taken = setting === null ? { ok: true as const } : this.bucketOf(caller, setting, now).take(now);
    if (taken.ok) {
      counts.served += 1;
      return null;
    }
    counts.refused += 1;
    const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
    return new ApiError(
      429,
      "rate_limited",
      `rate limit exceeded: ${formatRate(setting!)} per API key; retry after ${seconds} s`,
      { "Retry-After": String(seconds) },
    );
  }

  /** The setting and the counts. */
  view(): RateLimitView {
    const perKey = Object.fromEntries([...this.counts].map(([label, c]) => [label, { ...c }]));
    const all = [...this.counts.values()];
    return {
      rate: this.setting?.rate ?? null,
      burst: this.setting?.burst ?? null,
      served: all.reduce((n, c) => n + c.served, 0),
      refused: all.reduce((n, c) => n + c.refused, 0),
      perKey,
    };
  }

  private bucketOf(caller: string, setting: RateLimitSetting, now: number): TokenBucket {
    let bucket = this.buckets.get(caller);
    if (bucket === undefined) this.buckets.set(caller, (bucket = new TokenBucket(setting, now)));
    return bucket;
  }

  private countsOf(caller: string): RateCounts {
    let counts = this.counts.get(caller);
    if (counts === undefined) this.counts.set(caller, (counts = { served: 0, refused: 0 }));
    return counts;
  }
}

/** "5 requests/s (burst 10)". */
export function formatRate(setting: RateLimitSetting): string {
  return `${setting.rate} request${setting.rate === 1 ? "" : "s"}/s (burst ${setting.burst})`;
}
