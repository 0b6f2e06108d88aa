/**
 * MachineWatcher with a fake listing and client on an injected clock: the guarantees of a wait
 * (timeout, abort, options checked first) and that a failing loop leaves no wait hanging.
 */
import { AbortedError, ValidationError, WaitTimeoutError } from "../../../src/client/core/errors";
import type { Machine } from "../../../src/contract/schemas";
import { MachineWatcher, needsShow } from "../../../src/provider/machine/machineWatcher";

const machine = (id: string, state: string, events: unknown[] | undefined = []) =>
  ({ id, state, ...(events ? { events } : {}) }) as unknown as Machine;

/** A machine as a listing gives it: no events. */
const listed = (id: string, state: string) => ({ id, state }) as unknown as Machine;

function timing() {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => void (now += ms), random: () => 0.5 };
}

/** A client whose shows answer `state(id)`. */
function client(state: (id: string) => string) {
  const get = jest.fn(async (id: string) => machine(id, state(id)));
  return { client: { machines: { get } } as never, get };
}

describe("MachineWatcher", () => {
  it("waitFor: never reaches the target → WaitTimeoutError with the last state; the watcher is left empty", async () => {
    const watcher = new MachineWatcher(async () => [machine("a", "provisioning", undefined)], timing());
    const { client: c } = client(() => "provisioning");
    await expect(watcher.waitFor(c, "a", "ready", { timeoutMs: 60_000 })).rejects.toMatchObject({
      constructor: WaitTimeoutError,
      message: expect.stringMatching(/last state: provisioning/),
    });
    expect(watcher.size).toBe(0);
  });

  it("waitFor: two waits, the listing shows one ready → that one ends as listed (no show, no events, no internalId); the other waits on", async () => {
    let ready = false;
    const list = jest.fn(async () => [
      { ...listed("a", ready ? "ready" : "starting"), internalId: 7 } as Machine,
      listed("b", "starting"),
    ]);
    const watcher = new MachineWatcher(list, timing());
    const { client: c, get } = client((id) => (id === "a" ? "ready" : "starting"));
    const a = watcher.waitFor(c, "a", "ready", { timeoutMs: 600_000 });
    const b = watcher.waitFor(c, "b", "ready", { timeoutMs: 5_000 });
    ready = true;
    await Promise.all([
      expect(a).resolves.toEqual({ id: "a", state: "ready" }),
      expect(b).rejects.toBeInstanceOf(WaitTimeoutError),
    ]);
    // Neither was shown while both waited; "b", alone after that, is shown at each of its polls.
    expect(get.mock.calls.map(([id]) => id)).not.toContain("a");
    expect(list).toHaveBeenCalledTimes(1);
  });

  it("waitFor: two starts, the listing shows one off → that one is shown (its events decide); the other ends as listed", async () => {
    const list = jest.fn(async () => [listed("a", "off"), listed("b", "ready")]);
    const watcher = new MachineWatcher(list, timing());
    const { client: c, get } = client(() => "ready");
    const waits = ["a", "b"].map((id) => watcher.waitFor(c, id, "ready", { timeoutMs: 60_000 }));
    await expect(Promise.all(waits)).resolves.toEqual([
      { id: "a", state: "ready", events: [] },
      { id: "b", state: "ready" },
    ]);
    expect(get.mock.calls.map(([id]) => id)).toEqual(["a"]);
  });

  it("waitFor: aborted → AbortedError at once, and the wait is removed", async () => {
    const watcher = new MachineWatcher(async () => [], {
      ...timing(),
      sleep: () => new Promise<void>(() => undefined),
    });
    const controller = new AbortController();
    const waiting = watcher.waitFor(client(() => "off").client, "a", "ready", {
      signal: controller.signal,
      firstPollDelayMs: 30_000,
    });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    expect(watcher.size).toBe(0);
  });

  it("waitFor: bad options → ValidationError naming the option, nothing registered", () => {
    const watcher = new MachineWatcher(async () => [], timing());
    expect(() => watcher.waitFor(client(() => "off").client, "a", "ready", { timeoutMs: 0 })).toThrow(
      new ValidationError("timeoutMs must be a number > 0 (got 0)"),
    );
    expect(() => watcher.waitFor(client(() => "off").client, "a", "up" as never)).toThrow(
      /state must be one of/,
    );
    expect(watcher.size).toBe(0);
  });

  it("waitFor: the injected sleep throws → every wait rejects with its error; none hangs", async () => {
    const boom = new Error("clock broke");
    const watcher = new MachineWatcher(async () => [], {
      ...timing(),
      sleep: async () => Promise.reject(boom),
    });
    const waits = ["a", "b"].map((id) =>
      watcher.waitFor(client(() => "off").client, id, "ready", { firstPollDelayMs: 1_000 }),
    );
    await expect(Promise.all(waits)).rejects.toBe(boom);
    await expect(waits[1]).rejects.toBe(boom);
    expect(watcher.size).toBe(0);
  });
});

describe("needsShow", () => {
  it("off while a start is awaited → true; the target reached or on its way → false (ends or waits as listed)", () => {
    expect(needsShow(machine("a", "off"), "ready")).toBe(true);
    expect(needsShow(machine("a", "off"), "serviceready")).toBe(true);
    expect(needsShow(machine("a", "ready"), "ready")).toBe(false);
    expect(needsShow(machine("a", "ready"), "serviceready")).toBe(false);
    expect(needsShow(machine("a", "off"), "off")).toBe(false);
    expect(needsShow(machine("a", "starting"), "ready")).toBe(false);
    expect(needsShow(machine("a", "stopping"), "off")).toBe(false);
    expect(needsShow(machine("a", "serviceready"), "ready")).toBe(false);
  });
});
