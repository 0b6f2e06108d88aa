import { ConnectionError, ServerError, TimeoutError, VmApiError } from "../../../../src/client/core/errors";
import {
  createWaiting,
  formatDuration,
  lateCreateCadenceMs,
  mayStillAct,
  stillWaitingLine,
} from "../../../../src/client/core/createWindow";

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

describe("createWaiting", () => {
  it("createWaiting: the create's window → its timeout, the cadence, and the still-waiting line said", () => {
    const said: string[] = [];
    const waiting = createWaiting("script nightly", 600_000, (line) => said.push(line));
    expect(waiting).toMatchObject({ timeoutMs: 600_000, waitingEveryMs: 20_000 });
    waiting.onWaiting?.(40_000);
    expect(said).toEqual([stillWaitingLine("script nightly", 40_000, 600_000)]);
  });
});
