/**
 * ListSnapshots on an injected clock (no emulator): which reads share a listing, which read
 * alone, and what a listed machine or script stands for.
 */
import type { Machine, Script } from "../../../src/contract/schemas";
import { ListSnapshots, machineFromList, scriptFromList } from "../../../src/provider/account/listSnapshot";

function clock() {
  let now = 0;
  return {
    timing: { now: () => now, sleep: async (ms: number) => void (now += ms), random: () => 0.5 },
    advance: (ms: number) => void (now += ms),
  };
}

/** A clock whose sleeps end only when `advance` reaches them or their signal aborts. */
function manualClock() {
  let now = 0;
  const sleepers: { until: number; resolve: () => void }[] = [];
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      sleepers.push({ until: now + ms, resolve });
      signal?.addEventListener("abort", () => resolve(), { once: true });
    });
  return {
    timing: { now: () => now, sleep, random: () => 0.5 },
    advance(ms: number) {
      now += ms;
      for (const sleeper of sleepers) if (sleeper.until <= now) sleeper.resolve();
    },
  };
}

const item = (id: string) => ({ id, name: id });

describe("ListSnapshots", () => {
  it("lookup: a read alone in its window → undefined (read it alone), nothing listed", async () => {
    const list = jest.fn(async () => [item("a")]);
    const snapshots = new ListSnapshots(clock().timing);
    await expect(snapshots.lookup("k", list, "a")).resolves.toBeUndefined();
    expect(list).not.toHaveBeenCalled();
  });

  it("lookup: three reads together → one listing serves them; one missing from it → undefined", async () => {
    const list = jest.fn(async () => [item("a"), item("b")]);
    const snapshots = new ListSnapshots(clock().timing);
    const found = await Promise.all(["a", "b", "c"].map((id) => snapshots.lookup("k", list, id)));
    expect(found).toEqual([item("a"), item("b"), undefined]);
    expect(list).toHaveBeenCalledTimes(1);
  });

  it("lookup: a second read joins → the window closes at once and the listing starts, no time passing", async () => {
    const c = manualClock();
    const list = jest.fn(async () => [item("a"), item("b")]);
    const snapshots = new ListSnapshots(c.timing, 50, 2_000);
    await expect(Promise.all(["a", "b"].map((id) => snapshots.lookup("k", list, id)))).resolves.toEqual([
      item("a"),
      item("b"),
    ]);
    expect(list).toHaveBeenCalledTimes(1);
  });

  it("lookup: a read alone → waits the whole window, then reads alone", async () => {
    const c = manualClock();
    const list = jest.fn(async () => [item("a")]);
    const snapshots = new ListSnapshots(c.timing, 50, 2_000);
    let answered = false;
    const read = snapshots.lookup("k", list, "a").then((found) => ((answered = true), found));
    c.advance(49);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    c.advance(1);
    await expect(read).resolves.toBeUndefined();
    expect(list).not.toHaveBeenCalled();
  });

  it("lookup: reads of two accounts (keys) together → one listing each, never shared", async () => {
    const list = jest.fn(async () => [item("a")]);
    const snapshots = new ListSnapshots(clock().timing);
    await Promise.all(["k1", "k1", "k2", "k2"].map((key) => snapshots.lookup(key, list, "a")));
    expect(list).toHaveBeenCalledTimes(2);
  });

  it("lookup: the listing fails → every read of it gets undefined (each reads alone), and the next reads list again", async () => {
    const list = jest
      .fn()
      .mockRejectedValueOnce(new Error("503"))
      .mockResolvedValue([item("a")]);
    const snapshots = new ListSnapshots(clock().timing);
    expect(await Promise.all([1, 2].map(() => snapshots.lookup("k", list, "a")))).toEqual([
      undefined,
      undefined,
    ]);
    expect(await Promise.all([1, 2].map(() => snapshots.lookup("k", list, "a")))).toEqual([
      item("a"),
      item("a"),
    ]);
    expect(list).toHaveBeenCalledTimes(2);
  });

  it("lookup: a read after a listing, within the reuse time → served by it; after → a window of its own", async () => {
    const c = clock();
    const list = jest.fn(async () => [item("a")]);
    const snapshots = new ListSnapshots(c.timing, 50, 2_000);
    await Promise.all([1, 2].map(() => snapshots.lookup("k", list, "a")));
    c.advance(1_000);
    await expect(snapshots.lookup("k", list, "a")).resolves.toEqual(item("a"));
    c.advance(1_500);
    await expect(snapshots.lookup("k", list, "a")).resolves.toBeUndefined(); // alone again
    expect(list).toHaveBeenCalledTimes(1);
  });
});

describe("machineFromList", () => {
  const event = (state: string) => ({ name: "start", state, handle: "h", errorMsg: "" });
  const listed = { id: "ps1", state: "ready", name: "box", internalId: 7 } as unknown as Machine;

  it("same state, no pending event → the listed fields with the recorded events, without the list-only internalId", () => {
    const machine = machineFromList(listed, { currentState: "ready", events: [event("done")] });
    expect(machine).toEqual({ id: "ps1", state: "ready", name: "box", events: [event("done")] });
  });

  it("state changed since recorded → undefined (only a show has its new events)", () => {
    expect(machineFromList(listed, { currentState: "off", events: [] })).toBeUndefined();
  });

  it("a recorded event still pending → undefined", () => {
    expect(machineFromList(listed, { currentState: "ready", events: [event("pending")] })).toBeUndefined();
  });

  it("no recorded events (state of another shape) → undefined", () => {
    expect(machineFromList(listed, { currentState: "ready" })).toBeUndefined();
  });
});

describe("scriptFromList", () => {
  const listed = { id: "sc1", name: "boot" } as unknown as Script;
  it("recorded machines → kept with the listed fields; none recorded → undefined", () => {
    const machines = [{ machineId: "ps1", machineName: "box", dtLastRun: null }];
    expect(scriptFromList(listed, { machines })).toEqual({ ...listed, machines });
    expect(scriptFromList(listed, {})).toBeUndefined();
  });
});
