/**
 * The emulator's throttling without HTTP: the token bucket on a caller's clock, and the limits
 * per caller with their counts.
 */
import { ApiError } from "../../../src/emulator/model/apiError";
import { defaultBurst, RateLimits, TokenBucket } from "../../../src/emulator/traffic/rateLimit";
import { SEEDED } from "../../kit/seeded";

const T0 = Date.parse("2026-01-15T09:00:00.000Z");

describe("TokenBucket", () => {
  it("take: burst tokens at once, then refused with the time until the next token", () => {
    const bucket = new TokenBucket({ rate: 2, burst: 3 }, T0);
    expect([1, 2, 3].map(() => bucket.take(T0).ok)).toEqual([true, true, true]);
    expect(bucket.take(T0)).toEqual({ ok: false, retryAfterMs: 500 });
    expect(bucket.take(T0 + 200)).toEqual({ ok: false, retryAfterMs: 300 });
  });

  it("take: time refills at the rate (5/s over 200 ms is one token), never above the burst", () => {
    const bucket = new TokenBucket({ rate: 5, burst: 2 }, T0);
    bucket.take(T0);
    bucket.take(T0);
    expect(bucket.take(T0 + 199).ok).toBe(false);
    expect(bucket.take(T0 + 200).ok).toBe(true);
    // An hour idle refills the burst, not 18 000 tokens.
    const later = T0 + 3_600_000;
    expect([1, 2, 3].map(() => bucket.take(later).ok)).toEqual([true, true, false]);
  });

  it("take: a clock that steps back mints no token", () => {
    const bucket = new TokenBucket({ rate: 1, burst: 1 }, T0);
    expect(bucket.take(T0 + 5_000).ok).toBe(true);
    expect(bucket.take(T0).ok).toBe(false);
    expect(bucket.take(T0 + 5_999).ok).toBe(false);
    expect(bucket.take(T0 + 6_000).ok).toBe(true);
  });
});

describe("RateLimits", () => {
  it("admit: off → every request served and counted per caller", () => {
    const limits = new RateLimits(null);
    for (let i = 0; i < 100; i++) expect(limits.admit(SEEDED.individualUser, T0)).toBeNull();
    expect(limits.view()).toEqual({
      rate: null,
      burst: null,
      served: 100,
      refused: 0,
      perKey: { ujane001: { served: 100, refused: 0 } },
    });
  });

  it("admit: past the burst → 429 rate_limited with Retry-After in whole seconds (at least 1)", () => {
    const limits = new RateLimits({ rate: 0.5, burst: 1 });
    expect(limits.admit(SEEDED.individualUser, T0)).toBeNull();
    const refused = limits.admit(SEEDED.individualUser, T0);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 429, code: "rate_limited", headers: { "Retry-After": "2" } });
    expect(refused?.message).toBe(
      "rate limit exceeded: 0.5 requests/s (burst 1) per API key; retry after 2 s",
    );
    const fast = new RateLimits({ rate: 100, burst: 1 });
    fast.admit(SEEDED.individualUser, T0);
    expect(fast.admit(SEEDED.individualUser, T0)?.headers).toEqual({ "Retry-After": "1" });
  });

  it("admit: each caller has its own bucket", () => {
    const limits = new RateLimits({ rate: 1, burst: 1 });
    expect(limits.admit(SEEDED.individualUser, T0)).toBeNull();
    expect(limits.admit(SEEDED.individualUser, T0)).not.toBeNull();
    expect(limits.admit(SEEDED.admin, T0)).toBeNull();
    expect(limits.view().perKey).toEqual({
      ujane001: { served: 1, refused: 1 },
      uadmin01: { served: 1, refused: 0 },
    });
  });

  it("set: a new limit at run time, buckets full again; null → off; reset → the start-up limit, no counts", () => {
    const limits = new RateLimits({ rate: 1, burst: 1 });
    limits.admit(SEEDED.individualUser, T0);
    expect(limits.admit(SEEDED.individualUser, T0)).not.toBeNull();
    limits.set({ rate: 10, burst: 3 });
    expect([1, 2, 3, 4].map(() => limits.admit(SEEDED.individualUser, T0) === null)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    limits.set(null);
    expect(limits.admit(SEEDED.individualUser, T0)).toBeNull();
    limits.reset();
    expect(limits.view()).toMatchObject({ rate: 1, burst: 1, served: 0, refused: 0, perKey: {} });
    expect(limits.admit(SEEDED.individualUser, T0)).toBeNull();
    expect(limits.admit(SEEDED.individualUser, T0)).not.toBeNull();
  });

  it("defaultBurst: one second's worth of the rate, at least 1", () => {
    expect([0.2, 1, 2.5, 40].map(defaultBurst)).toEqual([1, 1, 3, 40]);
  });
});
