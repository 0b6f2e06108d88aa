import {
  ConnectionError,
  ServerError,
  TimeoutError,
  type VmApiError,
} from "../../../../../src/client/core/errors";
import {
  lookForLateCreate,
  type LateCreateSearch,
} from "../../../../../src/client/resources/machine/lateCreates";

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
