import {
  AbortedError,
  ConnectionError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  VmApiError,
} from "../../../../src/client/core/errors";
import {
  backoffDelay,
  classifyFailure,
  decideRetry,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  realTiming,
  retryAfterFromHeaders,
  runWithRetries,
  timingOf,
  type RetryPolicy,
  type Timing,
} from "../../../../src/client/core/retry";

const policy: RetryPolicy = {
  maxRetries: 3,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};
const half = () => 0.5;
const status = (s: number) => new VmApiError(`HTTP ${s}`, { status: s });

describe("classifyFailure", () => {
  it.each([
    [new ConnectionError("refused", { code: "ECONNREFUSED", requestMayHaveReachedServer: false }), "safe"],
    [new ConnectionError("reset", { code: "ECONNRESET", requestMayHaveReachedServer: true }), "ambiguous"],
    [new TimeoutError("slow"), "ambiguous"],
    [status(408), "safe"],
    [new RateLimitError("slow down", { status: 429 }), "safe"],
    [new ServerError("unavailable", { status: 503 }), "safe"],
    [new ServerError("boom", { status: 500 }), "ambiguous"],
    [new ServerError("bad gateway", { status: 502 }), "ambiguous"],
    [new ServerError("gateway timeout", { status: 504 }), "ambiguous"],
    [new NotFoundError("gone", { status: 404 }), "final"],
    [new ConflictError("dup", { status: 409 }), "final"],
    [new ValidationError("bad input"), "final"],
    [new AbortedError(), "final"],
    [new Error("not ours"), "final"],
  ])("classifyFailure: %s → %s", (error, kind) => {
    expect(classifyFailure(error).kind).toBe(kind);
  });

  it.each([
    ["503", new ServerError("unavailable", { status: 503, retryAfterMs: 7000 }), "safe"],
    ["500", new ServerError("boom", { status: 500, retryAfterMs: 7000 }), "ambiguous"],
    ["408", new VmApiError("timeout", { status: 408, retryAfterMs: 7000 }), "safe"],
  ])("classifyFailure: %s with Retry-After → carries the delay, not only on 429", (_s, error, kind) => {
    expect(classifyFailure(error)).toEqual({ kind, retryAfterMs: 7000 });
  });

  it("classifyFailure: 429 with Retry-After → carries the delay", () => {
    expect(classifyFailure(new RateLimitError("x", { status: 429, retryAfterMs: 3000 }))).toEqual({
      kind: "safe",
      retryAfterMs: 3000,
    });
  });
});

describe("backoffDelay", () => {
  it("backoffDelay: doubles from the initial delay up to the cap (no jitter at random 0)", () => {
    const delays = [0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, () => 0));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it("backoffDelay: jitter only shortens, by at most a quarter", () => {
    expect(backoffDelay(0, policy, () => 0.999999)).toBe(375);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(2, policy, Math.random);
      expect(d).toBeGreaterThanOrEqual(1500);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});

describe("decideRetry", () => {
  const ctx = (retriesDone: number, idempotent: boolean, guarded = false) => ({
    retriesDone,
    idempotent,
    guarded,
  });

  it("decideRetry: safe failure of a non-idempotent request → retry", () => {
    expect(decideRetry({ kind: "safe" }, ctx(0, false), policy, () => 0)).toEqual({
      action: "retry",
      delayMs: 500,
    });
  });

  it("decideRetry: ambiguous failure of an idempotent request → retry with backoff", () => {
    expect(decideRetry({ kind: "ambiguous" }, ctx(2, true), policy, () => 0)).toEqual({
      action: "retry",
      delayMs: 2000,
    });
  });

  it("decideRetry: ambiguous failure of an unguarded non-idempotent request → stop", () => {
    expect(decideRetry({ kind: "ambiguous" }, ctx(0, false), policy, half).action).toBe("stop");
  });

  it("decideRetry: ambiguous failure of a guarded non-idempotent request → lookup then retry", () => {
    expect(decideRetry({ kind: "ambiguous" }, ctx(0, false, true), policy, () => 0)).toEqual({
      action: "lookup-then-retry",
      delayMs: 500,
    });
  });

  it("decideRetry: Retry-After → used as the delay instead of the backoff", () => {
    expect(decideRetry({ kind: "safe", retryAfterMs: 7000 }, ctx(0, false), policy, half)).toEqual({
      action: "retry",
      delayMs: 7000,
    });
  });

  it("decideRetry: Retry-After longer than the cap → stop", () => {
    expect(decideRetry({ kind: "safe", retryAfterMs: 120_000 }, ctx(0, true), policy, half).action).toBe(
      "stop",
    );
  });

  it("decideRetry: retries exhausted → stop", () => {
    expect(decideRetry({ kind: "safe" }, ctx(3, true), policy, half)).toEqual({
      action: "stop",
      reason: "retries exhausted",
    });
  });

  it("decideRetry: no answer (refused, timed out) past maxUnansweredRetries → stop, while answered 503s keep retrying", () => {
    const failFast = { ...policy, maxUnansweredRetries: 1 };
    const refused = classifyFailure(
      new ConnectionError("refused", { code: "ECONNREFUSED", requestMayHaveReachedServer: false }),
    );
    expect(decideRetry(refused, ctx(0, true), failFast, half).action).toBe("retry");
    expect(decideRetry(refused, ctx(1, true), failFast, half)).toEqual({
      action: "stop",
      reason: "no answer after 1 retry",
    });
    const unavailable = classifyFailure(new ServerError("unavailable", { status: 503 }));
    expect(decideRetry(unavailable, ctx(2, true), failFast, half).action).toBe("retry");
    const timedOut = classifyFailure(new TimeoutError("slow"));
    expect(decideRetry(timedOut, ctx(1, true), failFast, half).action).toBe("stop");
  });

  it("decideRetry: connection reset (the server was reached) past maxUnansweredRetries → still retried", () => {
    const failFast = { ...policy, maxUnansweredRetries: 1 };
    const reset = classifyFailure(
      new ConnectionError("socket hang up", { code: "ECONNRESET", requestMayHaveReachedServer: true }),
    );
    expect(reset.unanswered).toBeUndefined();
    expect(decideRetry(reset, ctx(2, true), failFast, half).action).toBe("retry");
  });

  it("decideRetry: final failure → stop", () => {
    expect(decideRetry({ kind: "final" }, ctx(0, true), policy, half).action).toBe("stop");
  });

  it("decideRetry: maxRetries 0 → never retries", () => {
    expect(decideRetry({ kind: "safe" }, ctx(0, true), { ...policy, maxRetries: 0 }, half).action).toBe(
      "stop",
    );
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00.000Z");
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["3", 3000],
    [" 0 ", 0],
    ["1.5", 1500],
    ["Thu, 01 Jan 2026 00:00:10 GMT", 10_000],
    ["Wed, 31 Dec 2025 23:59:00 GMT", 0],
    ["soon", undefined],
  ])("parseRetryAfter: %p → %p", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe("runWithRetries", () => {
  function fakeTiming(): Timing & { slept: number[] } {
    const slept: number[] = [];
    return { slept, sleep: async (ms) => void slept.push(ms), now: () => 0, random: () => 0 };
  }
  const reset = () => new ConnectionError("reset", { code: "ECONNRESET", requestMayHaveReachedServer: true });

  function scripted<T>(outcomes: (T | Error)[]): { attempt: () => Promise<T>; calls: () => number } {
    let calls = 0;
    return {
      attempt: async () => {
        const outcome = outcomes[Math.min(calls++, outcomes.length - 1)];
        if (outcome instanceof Error) throw outcome;
        return outcome;
      },
      calls: () => calls,
    };
  }

  it("runWithRetries: transient failures then success → value, backoff slept", async () => {
    const timing = fakeTiming();
    const { attempt, calls } = scripted([new ServerError("x", { status: 500 }), status(503), "ok"]);
    await expect(runWithRetries(attempt, { policy, timing, idempotent: true })).resolves.toBe("ok");
    expect(calls()).toBe(3);
    expect(timing.slept).toEqual([500, 1000]);
  });

  it("runWithRetries: persistent failure → last error after maxRetries + 1 attempts", async () => {
    const timing = fakeTiming();
    const { attempt, calls } = scripted<string>([new ServerError("x", { status: 500 })]);
    await expect(runWithRetries(attempt, { policy, timing, idempotent: true })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(calls()).toBe(4);
  });

  it("runWithRetries: non-idempotent, ambiguous failure, no guard → fails after one attempt", async () => {
    const { attempt, calls } = scripted<string>([reset(), "twice"]);
    await expect(
      runWithRetries(attempt, { policy, timing: fakeTiming(), idempotent: false }),
    ).rejects.toBeInstanceOf(ConnectionError);
    expect(calls()).toBe(1);
  });

  it("runWithRetries: non-idempotent, ambiguous failure, lookup finds it → returns it without resending", async () => {
    const { attempt, calls } = scripted<string>([reset(), "duplicate!"]);
    const lookup = jest.fn(async () => "found");
    await expect(
      runWithRetries(attempt, { policy, timing: fakeTiming(), idempotent: false, lookup }),
    ).resolves.toBe("found");
    expect(calls()).toBe(1);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it("runWithRetries: a lookup is told the failure and when the failed attempt was sent", async () => {
    let clock = 1_000;
    const timing = { ...fakeTiming(), now: () => clock };
    const failure = reset();
    const attempt = async () => {
      clock += 250; // the attempt takes 250 ms, then fails
      throw failure;
    };
    const lookup = jest.fn(async () => "found");
    await runWithRetries(attempt, { policy, timing, idempotent: false, lookup });
    expect(lookup).toHaveBeenCalledWith({ error: failure, sentAtMs: 1_000 });
  });

  it("runWithRetries: non-idempotent, ambiguous failure, lookup finds nothing → resends", async () => {
    const { attempt, calls } = scripted<string>([reset(), "created"]);
    const lookup = jest.fn(async () => undefined);
    await expect(
      runWithRetries(attempt, { policy, timing: fakeTiming(), idempotent: false, lookup }),
    ).resolves.toBe("created");
    expect(calls()).toBe(2);
  });

  it("runWithRetries: retries exhausted after ambiguous failures → a last lookup may still find it", async () => {
    const noRetries = { ...policy, maxRetries: 0 };
    const { attempt } = scripted<string>([reset()]);
    const lookup = jest.fn(async () => "found");
    await expect(
      runWithRetries(attempt, { policy: noRetries, timing: fakeTiming(), idempotent: false, lookup }),
    ).resolves.toBe("found");
  });

  it("runWithRetries: the lookup itself fails → the original ambiguous error", async () => {
    const original = reset();
    const { attempt } = scripted<string>([original]);
    const lookup = async () => {
      throw new ServerError("list failed", { status: 500 });
    };
    await expect(
      runWithRetries(attempt, { policy, timing: fakeTiming(), idempotent: false, lookup }),
    ).rejects.toBe(original);
  });

  it("runWithRetries: conflict after an ambiguous failure → afterAmbiguous settles it", async () => {
    const { attempt, calls } = scripted<string>([reset(), new ConflictError("exists", { status: 409 })]);
    const afterAmbiguous = async (e: VmApiError) =>
      e instanceof ConflictError ? { value: "fetched" } : undefined;
    await expect(
      runWithRetries(attempt, { policy, timing: fakeTiming(), idempotent: false, afterAmbiguous }),
    ).resolves.toBe("fetched");
    expect(calls()).toBe(2);
  });

  it("runWithRetries: conflict on the first attempt → ConflictError (a genuine duplicate)", async () => {
    const { attempt } = scripted<string>([new ConflictError("exists", { status: 409 })]);
    const afterAmbiguous = jest.fn(async () => ({ value: "fetched" }));
    await expect(
      runWithRetries(attempt, { policy, timing: fakeTiming(), idempotent: false, afterAmbiguous }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(afterAmbiguous).not.toHaveBeenCalled();
  });

  it("runWithRetries: 429 with Retry-After → sleeps exactly that long", async () => {
    const timing = fakeTiming();
    const { attempt } = scripted([new RateLimitError("slow", { status: 429, retryAfterMs: 2000 }), "ok"]);
    await runWithRetries(attempt, { policy, timing, idempotent: false });
    expect(timing.slept).toEqual([2000]);
  });

  it("runWithRetries: abort during the backoff → AbortedError promptly, no further attempt", async () => {
    const controller = new AbortController();
    const timing: Timing = { sleep: () => new Promise(() => {}), now: () => 0, random: () => 0 };
    const { attempt, calls } = scripted<string>([status(503), "ok"]);
    const run = runWithRetries(attempt, { policy, timing, idempotent: true, signal: controller.signal });
    setImmediate(() => controller.abort());
    await expect(run).rejects.toBeInstanceOf(AbortedError);
    expect(calls()).toBe(1);
  });

  it("runWithRetries: default policy → 3 retries", () => {
    expect(DEFAULT_RETRY_POLICY.maxRetries).toBe(3);
  });
});

describe("retryAfterFromHeaders", () => {
  const now = Date.parse("2026-01-01T00:00:00.000Z");
  it.each([
    [{ "retry-after-ms": "1500" }, 1500],
    [{ "retry-after-ms": "1500", "retry-after": "9" }, 1500],
    [{ "retry-after-ms": "soon", "retry-after": "9" }, 9000],
    [{ "retry-after": "2" }, 2000],
    [{}, undefined],
  ])("retryAfterFromHeaders: %p → %p (retry-after-ms first, as Stainless clients read it)", (headers, ms) => {
    expect(retryAfterFromHeaders(headers, now)).toBe(ms);
  });
});

describe("timingOf", () => {
  it("timingOf: a clock of some parts → those parts, the real ones for the rest", () => {
    const now = () => 42;
    const timing = timingOf({ now });
    expect(timing.now).toBe(now);
    expect(timing.sleep).toBe(realTiming.sleep);
    expect(timing.random).toBe(realTiming.random);
    expect(timingOf()).toEqual(realTiming);
  });
});
