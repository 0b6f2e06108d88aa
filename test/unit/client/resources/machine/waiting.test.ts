import type { MachineState } from "../../../../../src/contract/constants";
import {
  AbortedError,
  MachineEventError,
  StateUnreachableError,
  ValidationError,
  WaitTimeoutError,
} from "../../../../../src/client/core/errors";
import type { Timing } from "../../../../../src/client/core/retry";
import type { Machine, MachineEvent } from "../../../../../src/contract/schemas";
import {
  DEFAULT_POLL_POLICY,
  newErrorEvent,
  pollDelay,
  stateSatisfies,
  targetUnreachable,
  waitForState,
  type WaitProgress,
} from "../../../../../src/client/resources/machine/waiting";
import { wireMachine } from "../../../../kit/machines";

const T0 = "2026-01-01T00:00:00.000Z";

function event(handle: string, state: string, errorMsg = "", name = "start"): MachineEvent {
  return { name, state, errorMsg, handle, dtCreated: T0, dtModified: T0, dtFinished: null };
}

function machine(state: MachineState, events: MachineEvent[] = []): Machine {
  return wireMachine({ dtCreated: T0, state, events });
}

/** A virtual clock: sleeping moves time, nothing waits. */
function virtualTiming(): Timing & { t: () => number } {
  let t = 0;
  return { t: () => t, now: () => t, random: () => 0.5, sleep: async (ms) => void (t += ms) };
}

describe("pollDelay", () => {
  const exact = () => 0.5;
  it("pollDelay: default schedule → 1 s, 2 s, 4 s, 8 s, then the 10 s cap", () => {
    const delays = [1, 2, 3, 4, 5, 6, 20].map((n) => pollDelay(n, DEFAULT_POLL_POLICY, exact));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });

  it("pollDelay: jitter → within ±10 % and never above the cap", () => {
    expect(pollDelay(1, DEFAULT_POLL_POLICY, () => 0)).toBe(900);
    expect(pollDelay(1, DEFAULT_POLL_POLICY, () => 0.99999)).toBe(1100);
    expect(pollDelay(9, DEFAULT_POLL_POLICY, () => 0.99999)).toBe(10000);
  });

  it("pollDelay: custom fixed policy → constant delay", () => {
    const fixed = { initialDelayMs: 5000, factor: 1, maxDelayMs: 5000, jitter: 0 };
    expect([1, 2, 3].map((n) => pollDelay(n, fixed, Math.random))).toEqual([5000, 5000, 5000]);
  });
});

describe("wait predicates", () => {
  it("stateSatisfies: ready satisfies serviceready, not the reverse", () => {
    expect(stateSatisfies("ready", "serviceready")).toBe(true);
    expect(stateSatisfies("serviceready", "ready")).toBe(false);
    expect(stateSatisfies("off", "off")).toBe(true);
  });

  it("targetUnreachable: off with nothing pending while waiting for ready → true", () => {
    expect(targetUnreachable(machine("off", [event("e1", "done")]), "ready")).toBe(true);
  });

  it("targetUnreachable: off with a pending start → false", () => {
    expect(targetUnreachable(machine("off", [event("e1", "pending")]), "ready")).toBe(false);
  });

  it("targetUnreachable: waiting for off → never judged hopeless", () => {
    expect(targetUnreachable(machine("ready"), "off")).toBe(false);
  });

  it("newErrorEvent: error present at the first poll → ignored; a new one → found", () => {
    const m = machine("off", [event("new", "error", "no capacity"), event("old", "error", "earlier")]);
    expect(newErrorEvent(m, new Set(["old"]))?.handle).toBe("new");
    expect(newErrorEvent(m, new Set(["old", "new"]))).toBeUndefined();
  });
});

describe("waitForState", () => {
  /** A machine that becomes `finalState` at `readyAtMs` of virtual time. */
  function provisioning(
    timing: { now: () => number },
    readyAtMs: number,
    finalState: MachineState = "ready",
  ) {
    const calls: number[] = [];
    const get = async () => {
      calls.push(timing.now());
      return timing.now() >= readyAtMs
        ? machine(finalState)
        : machine("provisioning", [event("c", "pending")]);
    };
    return { get, calls };
  }

  it("waitForState: 60 s provisioning → ready after 10 polls (fixed 5 s polling needs 13)", async () => {
    const timing = virtualTiming();
    const { get, calls } = provisioning(timing, 60_000);
    const result = await waitForState(get, "ps1", "ready", {}, timing);
    expect(result.state).toBe("ready");
    expect(calls).toEqual([0, 1000, 3000, 7000, 15000, 25000, 35000, 45000, 55000, 65000]);

    const fixedTiming = virtualTiming();
    const fixed = provisioning(fixedTiming, 60_000);
    const fixedPolicy = { initialDelayMs: 5000, factor: 1, maxDelayMs: 5000, jitter: 0 };
    await waitForState(fixed.get, "ps1", "ready", { pollPolicy: fixedPolicy }, fixedTiming);
    expect(fixed.calls).toHaveLength(13);
  });

  it("waitForState: state changes → onProgress once per change with the previous state", async () => {
    const timing = virtualTiming();
    const states: MachineState[] = ["off", "starting", "starting", "serviceready", "ready"];
    let i = 0;
    const get = async () => machine(states[Math.min(i++, states.length - 1)], [event("s", "pending")]);
    const seen: Omit<WaitProgress, "machine">[] = [];
    await waitForState(get, "ps1", "ready", { onProgress: ({ machine: _m, ...p }) => seen.push(p) }, timing);
    expect(seen).toEqual([
      { state: "off", previousState: undefined, elapsedMs: 0 },
      { state: "starting", previousState: "off", elapsedMs: 1000 },
      { state: "serviceready", previousState: "starting", elapsedMs: 7000 },
      { state: "ready", previousState: "serviceready", elapsedMs: 15000 },
    ]);
  });

  it("waitForState: deadline passes → WaitTimeoutError naming the last state", async () => {
    const timing = virtualTiming();
    const { get, calls } = provisioning(timing, Infinity);
    const wait = waitForState(get, "ps1", "ready", { timeoutMs: 20_000 }, timing);
    await expect(wait).rejects.toThrow(WaitTimeoutError);
    await expect(wait).rejects.toThrow(/did not become ready within 20000 ms; last state: provisioning/);
    expect(calls[calls.length - 1]).toBe(20_000); // a last poll exactly at the deadline
  });

  it("waitForState: new error event → MachineEventError with its errorMsg", async () => {
    const timing = virtualTiming();
    let polls = 0;
    const get = async () =>
      ++polls < 3
        ? machine("starting", [event("s", "pending"), event("old", "error", "old failure")])
        : machine("off", [
            event("s", "error", "insufficient capacity"),
            event("old", "error", "old failure"),
          ]);
    const wait = waitForState(get, "ps1", "ready", {}, timing);
    await expect(wait).rejects.toThrow(MachineEventError);
    await expect(wait).rejects.toMatchObject({ errorMsg: "insufficient capacity", lastState: "off" });
  });

  it("waitForState: off with nothing pending while waiting for ready → StateUnreachableError at once", async () => {
    const timing = virtualTiming();
    const get = jest.fn(async () => machine("off", [event("c", "done", "", "create")]));
    await expect(waitForState(get, "ps1", "ready", {}, timing)).rejects.toThrow(StateUnreachableError);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("waitForState: waiting for serviceready on a machine that reaches ready → returns it", async () => {
    const timing = virtualTiming();
    const { get } = provisioning(timing, 3000, "ready");
    await expect(waitForState(get, "ps1", "serviceready", {}, timing)).resolves.toMatchObject({
      state: "ready",
    });
  });

  it("waitForState: signal aborts during a sleep → AbortedError promptly", async () => {
    const controller = new AbortController();
    const timing: Timing = { now: () => 0, random: () => 0.5, sleep: () => new Promise(() => {}) };
    const get = jest.fn(async () => machine("provisioning"));
    const wait = waitForState(get, "ps1", "ready", { signal: controller.signal }, timing);
    setImmediate(() => controller.abort());
    await expect(wait).rejects.toThrow(AbortedError);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("waitForState: already aborted → AbortedError before any poll", async () => {
    const get = jest.fn(async () => machine("ready"));
    const signal = AbortSignal.abort();
    await expect(waitForState(get, "ps1", "ready", { signal }, virtualTiming())).rejects.toThrow(
      AbortedError,
    );
    expect(get).not.toHaveBeenCalled();
  });

  it("waitForState: unknown target state → ValidationError listing the states", async () => {
    const get = jest.fn(async () => machine("ready"));
    const wait = waitForState(get, "ps1", "running" as never, {}, virtualTiming());
    await expect(wait).rejects.toThrow(ValidationError);
    await expect(wait).rejects.toThrow(/state must be one of: off, serviceready, ready/);
  });
});

describe("waitForState options", () => {
  let polls = 0;
  /** Gives up after 20 polls, so a policy that spins fails the test instead of hanging it. */
  const boundedPoller = () =>
    jest.fn(async () => {
      if (polls++ >= 20) throw new Error("spun: 20 polls without the policy being refused");
      return machine("starting");
    });
  beforeEach(() => {
    polls = 0;
  });

  it.each([
    [
      "initialDelayMs 0, factor 1",
      { pollPolicy: { initialDelayMs: 0, factor: 1 } },
      /pollPolicy\.initialDelayMs must be a number > 0 \(got 0\)/,
    ],
    [
      "maxDelayMs 0",
      { pollPolicy: { maxDelayMs: 0 } },
      /pollPolicy\.maxDelayMs must be a number ≥ pollPolicy\.initialDelayMs \(1000\) \(got 0\)/,
    ],
    [
      "initialDelayMs NaN",
      { pollPolicy: { initialDelayMs: Number.NaN } },
      /pollPolicy\.initialDelayMs must be a number > 0 \(got NaN\)/,
    ],
    ["factor 0.5", { pollPolicy: { factor: 0.5 } }, /pollPolicy\.factor must be a number ≥ 1 \(got 0\.5\)/],
    ["jitter 2", { pollPolicy: { jitter: 2 } }, /pollPolicy\.jitter must be a number from 0 to 1 \(got 2\)/],
    ["timeoutMs 0", { timeoutMs: 0 }, /timeoutMs must be a number > 0 \(got 0\)/],
    ["firstPollDelayMs -1", { firstPollDelayMs: -1 }, /firstPollDelayMs must be a number ≥ 0 \(got -1\)/],
  ])(
    "waitForState: %s → ValidationError naming the option, before any poll",
    async (_label, options, message) => {
      const get = boundedPoller();
      const wait = waitForState(get, "ps1", "ready", options, virtualTiming());
      await expect(wait).rejects.toThrow(ValidationError);
      await expect(wait).rejects.toThrow(message);
      expect(get).not.toHaveBeenCalled();
    },
  );
});
