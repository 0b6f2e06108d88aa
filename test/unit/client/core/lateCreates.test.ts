import { ConnectionError, ServerError, TimeoutError, VmApiError } from "../../../../src/client/core/errors";
import {
  formatDuration,
  lateCreateCadenceMs,
  lookForLateCreate,
  mayStillAct,
  stillWaitingLine,
  type LateCreateSearch,
} from "../../../../src/client/core/lateCreates";

describe("mayStillAct", () => {
  it.each([
    ["a timeout", new TimeoutError("slow"), true],
    [
      "a reset",
      new ConnectionError("reset", { code: "ECONNRESET", requestMayHaveReachedServer: true }),
      true,
    ],
    [
      "a refused connection",
      new ConnectionError("refused", { code: "ECONNREFUSED", requestMayHaveReachedServer: false }),
      false,
    ],
    ["a gateway's 502", new ServerError("bad gateway", { status: 502 }), true],
    ["a gateway's 504", new ServerError("gateway timeout", { status: 504 }), true],
    ["the server's own 500", new ServerError("internal", { status: 500 }), false],
    ["a 409", new VmApiError("conflict", { status: 409 }), false],
  ])("mayStillAct: %s → %s", (_what, error, expected) => {
    expect(mayStillAct(error)).toBe(expected);
  });
});

describe("late create wording", () => {
  it("lateCreateCadenceMs: the default 10 min window → every 20 s; never below 1 ms", () => {
    expect(lateCreateCadenceMs(600_000)).toBe(20_000);
    expect(lateCreateCadenceMs(3)).toBe(1);
  });

  it.each([
    [350, "350 ms"],
    [35_000, "35 s"],
    [90_000, "90 s"],
    [600_000, "10 min"],
    [150_000, "2.5 min"],
  ])("formatDuration: %i → %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("stillWaitingLine: names what is created, the time waited and the bound, and why it is not sent again", () => {
    expect(stillWaitingLine("machine build-1", 40_000, 600_000)).toBe(
      "no answer to the create of machine build-1 yet after 40 s; waiting for it (up to 10 min) rather than sending it again, which could make a second one",
    );
  });
});

describe("lookForLateCreate", () => {
  /** A search on a virtual clock whose `find` answers from `looks` in turn (an Error is thrown). */
  function search(looks: ({ id: string }[] | Error)[], error: VmApiError, sentAtMs = 0) {
    let clock = 60_000; // the failure came 60 s after the send
    const said: string[] = [];
    const slept: number[] = [];
    let calls = 0;
    const options: LateCreateSearch<{ id: string }> = {
      kind: "machine",
      name: "build-1",
      error,
      sentAtMs,
      createTimeoutMs: 600_000,
      timing: {
        sleep: async (ms) => {
          slept.push(ms);
          clock += ms;
        },
        now: () => clock,
        random: () => 0,
      },
      find: async () => {
        const look = looks[Math.min(calls++, looks.length - 1)];
        if (look instanceof Error) throw look;
        return look;
      },
      say: (line) => said.push(line),
    };
    return { options, said, slept, calls: () => calls };
  }
  const reset = () => new ConnectionError("reset", { code: "ECONNRESET", requestMayHaveReachedServer: true });

  it("lookForLateCreate: the server answered 500 → one look, nothing, no wait", async () => {
    const s = search([[]], new ServerError("internal", { status: 500 }));
    await expect(lookForLateCreate(s.options)).resolves.toBeUndefined();
    expect(s.calls()).toBe(1);
    expect(s.slept).toEqual([]);
  });

  it("lookForLateCreate: a reset, the machine appears at the third look → taken, said so, nothing else", async () => {
    const s = search([[], [], [{ id: "ps1" }]], reset());
    await expect(lookForLateCreate(s.options)).resolves.toEqual({ id: "ps1" });
    expect(s.slept).toEqual([20_000, 20_000]);
    expect(s.said).toEqual([
      "the answer to the create of machine build-1 was lost (reset); the API may still act on it: looking for what it makes for up to 9 min before sending it again",
      "the answer to the create of machine build-1 was lost (reset), and it made machine ps1: taking it instead of creating another",
    ]);
  });

  it("lookForLateCreate: a reset, nothing by the end of the window → undefined, after looking until 10 min from the send", async () => {
    const s = search([[]], reset());
    await expect(lookForLateCreate(s.options)).resolves.toBeUndefined();
    expect(s.slept.reduce((a, b) => a + b, 0)).toBe(540_000);
    expect(s.said[s.said.length - 1]).toBe(
      "the answer to the create of machine build-1 was lost (reset), and nothing came of it within 10 min of sending it",
    );
  });

  it("lookForLateCreate: a list fails while the machine may still come → looked again, then found", async () => {
    const s = search([new ServerError("list failed", { status: 500 }), [{ id: "ps2" }]], reset());
    await expect(lookForLateCreate(s.options)).resolves.toEqual({ id: "ps2" });
  });

  it("lookForLateCreate: a list fails at the end of the window → that failure", async () => {
    const failed = new ServerError("list failed", { status: 500 });
    const s = search([failed], new TimeoutError("slow"), -540_000);
    await expect(lookForLateCreate(s.options)).rejects.toBe(failed);
  });

  it("lookForLateCreate: several match → the oldest taken, the others named and left alone", async () => {
    const s = search([[{ id: "ps-old" }, { id: "ps-new" }]], reset());
    await expect(lookForLateCreate(s.options)).resolves.toEqual({ id: "ps-old" });
    expect(s.said[1]).toBe(
      "machine build-1: ps-new also match what was sent and may be from this call: not touched, check them",
    );
  });
});
