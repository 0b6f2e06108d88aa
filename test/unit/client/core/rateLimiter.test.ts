/**
 * The account's shared request budget on a manual clock: its sleep moves virtual time, so a
 * queue of callers held for seconds runs in microseconds, and the grant times are exact.
 */
import { AbortedError, ValidationError } from "../../../../src/client/core/errors";
import { RateLimiter, type Permit, type ThrottleNotice } from "../../../../src/client/core/rateLimiter";

/**
 * A limiter on a virtual clock: its sleeps are timers that fire only when every caller has
 * done what it can at the current instant (`run` moves time to the next timer), so grant
 * times are exact and nothing waits for real.
 */
function setup(options: ConstructorParameters<typeof RateLimiter>[0] = {}) {
  let now = 0;
  const sleeps: number[] = [];
  const timers: { at: number; fire: () => void }[] = [];
  const notices: ThrottleNotice[] = [];
  const limiter = new RateLimiter({
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        sleeps.push(ms);
        timers.push({ at: now + ms, fire: resolve });
      }),
    now: () => now,
    onThrottle: (n) => notices.push(n),
    ...options,
  });
  /** Runs virtual time until `work` settles. */
  const run = async <T>(work: Promise<T>): Promise<T> => {
    let settled = false;
    const done = work.finally(() => (settled = true));
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) return done;
      if (timers.length === 0) throw new Error("deadlock: callers wait, and no timer is set");
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift()!;
      // Whole milliseconds, as Date.now counts.
      now = Math.max(now, Math.floor(next.at));
      next.fire();
    }
  };
  /** `n` callers asking at once; resolves with each one's grant time, in grant order. */
  const callers = (n: number): Promise<number[]> => {
    const times: number[] = [];
    const all = Promise.all(Array.from({ length: n }, () => limiter.acquire().then(() => times.push(now))));
    return run(all.then(() => times));
  };
  const ok = (permit: Permit) => limiter.settle(permit, { status: 200 });
  return {
    limiter,
    sleeps,
    notices,
    callers,
    run,
    ok,
    clock: {
      get now() {
        return now;
      },
    },
  };
}

/**
 * A limiter that learned `rate` requests/s, its floor: of two requests at once, the second was
 * refused with no Retry-After.
 */
async function learnedRate(rate: number) {
  const t = setup({ minRatePerSecond: rate });
  const burst = await Promise.all(Array.from({ length: 2 }, () => t.limiter.acquire()));
  t.ok(burst[0]);
  t.limiter.settle(burst[1], { status: 429, retryAfterMs: 0 });
  expect(t.limiter.ratePerSecond).toBe(rate);
  return t;
}

describe("RateLimiter", () => {
  it("acquire: before any refusal → unlimited, nobody waits", async () => {
    const t = setup();
    expect(await t.callers(200)).toEqual(Array(200).fill(0));
    expect(t.sleeps).toEqual([]);
    expect(t.limiter.ratePerSecond).toBe(Infinity);
  });

  it("429 with Retry-After 3 s → every caller, already queued or new, waits ≥ 3 s", async () => {
    const t = setup();
    const first = await t.limiter.acquire();
    t.limiter.settle(first, { status: 429, retryAfterMs: 3_000 });
    const times = await t.callers(25);
    expect(times).toHaveLength(25);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(3_000);
  });

  it("a hold that arrives while callers queue → the whole queue waits for it too", async () => {
    const t = setup();
    const burst = await Promise.all(Array.from({ length: 3 }, () => t.limiter.acquire()));
    burst.slice(0, 2).forEach(t.ok);
    t.limiter.settle(burst[2], { status: 429, retryAfterMs: 1_000 });
    const times: number[] = [];
    const queued = Array.from({ length: 5 }, () =>
      t.limiter.acquire().then((permit) => {
        times.push(t.clock.now);
        // The first one through is refused again, with a longer wait.
        if (times.length === 1) t.limiter.settle(permit, { status: 429, retryAfterMs: 4_000 });
      }),
    );
    await t.run(Promise.all(queued));
    expect(times[0]).toBeGreaterThanOrEqual(1_000);
    expect(Math.min(...times.slice(1))).toBeGreaterThanOrEqual(times[0] + 4_000);
  });

  it("429: the rate goes down at once, a little under what the server let through, once per round", async () => {
    const t = setup();
    const permits = await Promise.all(Array.from({ length: 30 }, () => t.limiter.acquire()));
    permits.slice(0, 10).forEach(t.ok); // the server let 10 through in this second
    t.limiter.settle(permits[10], { status: 429, retryAfterMs: 1_000 });
    expect(t.limiter.ratePerSecond).toBe(9);
    // The rest of the same burst was sent before the slow-down: it says nothing new.
    for (const p of permits.slice(11)) t.limiter.settle(p, { status: 429, retryAfterMs: 1_000 });
    expect(t.limiter.ratePerSecond).toBe(9);
    // Refused again after the hold, with nothing let through since: half the refused rate.
    const later = await t.run(t.limiter.acquire());
    t.limiter.settle(later, { status: 429, retryAfterMs: 1_000 });
    expect(t.limiter.ratePerSecond).toBe(4.5);
  });

  it("a stray 429 among many accepted requests → a slight slow-down, not a halving", async () => {
    const t = setup();
    const permits = await Promise.all(Array.from({ length: 30 }, () => t.limiter.acquire()));
    permits.slice(0, 20).forEach(t.ok);
    t.limiter.settle(permits[20], { status: 429, retryAfterMs: 0 });
    expect(t.limiter.ratePerSecond).toBe(18);
    permits.slice(21).forEach(t.ok);
    const next = await t.run(t.limiter.acquire());
    t.limiter.settle(next, { status: 429, retryAfterMs: 0 });
    expect(t.limiter.ratePerSecond).toBeGreaterThan(17);
  });

  it.each([
    ["a first 429 with nothing let through around it → a hold, no rate", 429, 5],
    ["Retry-After on another answer (503) → everyone holds, the rate stays", 503, 3],
  ])("%s", async (_name, status, callers) => {
    const t = setup();
    t.limiter.settle(await t.limiter.acquire(), { status, retryAfterMs: 2_000 });
    expect(t.limiter.ratePerSecond).toBe(Infinity);
    expect(Math.min(...(await t.callers(callers)))).toBeGreaterThanOrEqual(2_000);
  });

  it("after a slow-down → the rate recovers gently: about +1 request/s per second of answered traffic", async () => {
    const t = setup();
    const permits = await Promise.all(Array.from({ length: 3 }, () => t.limiter.acquire()));
    permits.slice(0, 2).forEach(t.ok);
    t.limiter.settle(permits[2], { status: 429, retryAfterMs: 0 });
    expect(t.limiter.ratePerSecond).toBe(1.8);
    const rates: number[] = [];
    const start = t.clock.now;
    for (let i = 0; i < 20; i++) {
      t.ok(await t.run(t.limiter.acquire()));
      rates.push(t.limiter.ratePerSecond);
    }
    // Each answer adds 1/rate: about +1 request/s per second at the allowed pace.
    let expected = 1.8;
    for (const rate of rates) expect(rate).toBeCloseTo((expected += 1 / expected), 9);
    const seconds = (t.clock.now - start) / 1000;
    expect(seconds).toBeGreaterThan(4); // 20 requests paced at the low, growing rate
    expect(rates[19]).toBeLessThan(1.8 + seconds + 1);
  });

  it("concurrent callers share one budget: at a learned 2/s, 10 callers go one every 500 ms, in order", async () => {
    const t = await learnedRate(2);
    const start = t.clock.now;
    const order: number[] = [];
    const times: number[] = [];
    await t.run(
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.limiter.acquire().then(() => {
            order.push(i);
            times.push(t.clock.now - start);
          }),
        ),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(times).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500]);
  });

  it("a rate whose interval is a fraction of a millisecond's clock (3/s) → the queue still moves, never faster", async () => {
    const t = await learnedRate(3);
    const times = await t.callers(6);
    expect(times).toHaveLength(6);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(1000 / 3);
  });

  it("notices: one per hold or slow-down, not one per refused caller", async () => {
    const t = setup();
    const permits = await Promise.all(Array.from({ length: 20 }, () => t.limiter.acquire()));
    permits.slice(0, 4).forEach(t.ok);
    for (const p of permits.slice(4)) t.limiter.settle(p, { status: 429, retryAfterMs: 1_000 });
    const queued = t.callers(3);
    t.limiter.settle(permits[0], { status: 429, retryAfterMs: 1_000 });
    expect(t.notices).toEqual([{ status: 429, waitMs: 1_000, ratePerSecond: 3.6, waiting: 0 }]);
    await queued;
  });

  it("a Retry-After beyond maxHoldMs → the hold is capped", async () => {
    const t = setup({ maxHoldMs: 5_000 });
    t.limiter.settle(await t.limiter.acquire(), { status: 429, retryAfterMs: 3_600_000 });
    expect(t.notices[0].waitMs).toBe(5_000);
  });

  it("abort while queued → AbortedError for that caller only, the others go on", async () => {
    const t = setup();
    const burst = await Promise.all(Array.from({ length: 2 }, () => t.limiter.acquire()));
    t.ok(burst[0]);
    t.limiter.settle(burst[1], { status: 429, retryAfterMs: 1_000 });
    const controller = new AbortController();
    const aborted = t.limiter.acquire(controller.signal);
    const other = t.limiter.acquire();
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortedError);
    await expect(t.run(other)).resolves.toEqual(expect.objectContaining({ seq: expect.any(Number) }));
    expect(t.limiter.waiting).toBe(0);
  });

  it("options: out of range → ValidationError naming each", () => {
    expect(() => new RateLimiter({ decrease: 1, minRatePerSecond: 0 })).toThrow(ValidationError);
    expect(() => new RateLimiter({ decrease: 1, minRatePerSecond: 0 })).toThrow(
      "RateLimiter: minRatePerSecond must be > 0 (got 0); decrease must be in (0, 1) (got 1)",
    );
  });
});
