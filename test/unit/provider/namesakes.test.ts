/**
 * NamesakeListings with a fake lister on an injected clock: creates that start together share one
 * listing of the account, a create alone asking one name lists by it, and no create is ever served by a listing
 * sent before it began (the guarantee a create's own listing gave).
 */
import type { Machine } from "../../../src/contract/schemas";
import { NamesakeListings, type NamesakeLister } from "../../../src/provider/machine/namesakes";

/** The ids of the machines named `name`, as a create asking for that one name gets them. */
async function idsNamed(listings: NamesakeListings, name: string): Promise<string[]> {
  return (await listings.named([name])).map((m) => m.id);
}

const machine = (id: string, name: string) => ({ id, name, state: "ready" }) as unknown as Machine;

/** A clock whose sleep only moves time, and lets other tasks run first. */
function timing() {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

/** An account holding `machines` (mutable), listed all at once or by name. */
function account(machines: Machine[]) {
  const sends: number[] = [];
  const lister = {
    all: jest.fn(async (onSent: () => void) => {
      onSent();
      sends.push(sends.length);
      return [...machines];
    }),
    named: jest.fn(async (name: string) => machines.filter((m) => m.name === name)),
  } satisfies NamesakeLister;
  return { lister, machines };
}

describe("NamesakeListings", () => {
  it("named: 5 creates in one window → one listing of the account; each gets its own namesakes (a kept namesake is found)", async () => {
    const { lister } = account([machine("kept", "web-2"), machine("other", "db-0")]);
    const listings = new NamesakeListings(lister, timing());
    const names = ["web-0", "web-1", "web-2", "web-3", "web-4"];
    const found = await Promise.all(names.map((name) => idsNamed(listings, name)));

    expect(found).toEqual([[], [], ["kept"], [], []]);
    expect(lister.all).toHaveBeenCalledTimes(1);
    expect(lister.named).not.toHaveBeenCalled();
    expect(listings.listings).toBe(1);
  });

  it("named: a create alone in its window → its namesakes listed by name, as before (one request)", async () => {
    const { lister } = account([machine("kept", "web-0")]);
    const listings = new NamesakeListings(lister, timing());
    expect(await idsNamed(listings, "web-0")).toEqual(["kept"]);
    expect(lister.named).toHaveBeenCalledWith("web-0");
    expect(lister.all).not.toHaveBeenCalled();
    expect(listings.listings).toBe(0);
  });

  it("named: a create that begins after the shared listing was sent → never served by it: the next listing finds a namesake made meanwhile", async () => {
    const { lister, machines } = account([]);
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    let sent: () => void = () => undefined;
    const wasSent = new Promise<void>((resolve) => (sent = resolve));
    // The first listing leaves, then waits for its answer until the test releases it.
    lister.all.mockImplementationOnce(async (onSent) => {
      onSent();
      const snapshot = [...machines];
      sent();
      await answered;
      return snapshot;
    });
    const listings = new NamesakeListings(lister, timing());
    const first = [idsNamed(listings, "web-0"), idsNamed(listings, "web-1")];
    await wasSent;
    // After that listing left, a namesake of web-2 appears (a late create of a killed `up`)...
    machines.push(machine("late", "web-2"));
    // ...and two creates begin: they may not use the listing in flight.
    const second = [idsNamed(listings, "web-2"), idsNamed(listings, "web-3")];
    release();

    expect((await Promise.all(first)).map((ids) => ids.length)).toEqual([0, 0]);
    expect(await Promise.all(second)).toEqual([["late"], []]);
    expect(lister.all).toHaveBeenCalledTimes(2);
  });

  it("named: creates that arrive while the listing waits for its turn (not sent yet) → they join it", async () => {
    const { lister } = account([machine("kept", "web-3")]);
    let turn: () => void = () => undefined;
    const granted = new Promise<void>((resolve) => (turn = resolve));
    let queued: () => void = () => undefined;
    const isQueued = new Promise<void>((resolve) => (queued = resolve));
    lister.all.mockImplementationOnce(async (onSent) => {
      queued();
      await granted; // the account's rate limiter holds it
      onSent();
      return [machine("kept", "web-3")];
    });
    const listings = new NamesakeListings(lister, timing());
    const early = [idsNamed(listings, "web-0"), idsNamed(listings, "web-1")];
    await isQueued;
    const late = [idsNamed(listings, "web-2"), idsNamed(listings, "web-3")];
    turn();

    const found = await Promise.all([...early, ...late]);
    expect(found).toEqual([[], [], [], ["kept"]]);
    expect(lister.all).toHaveBeenCalledTimes(1);
  });

  it("named: the shared listing fails after its retries → each create lists its own namesakes by name; none fails for it", async () => {
    const { lister } = account([machine("kept", "web-1")]);
    lister.all.mockRejectedValueOnce(new Error("503 after 6 retries"));
    const listings = new NamesakeListings(lister, timing());
    const found = await Promise.all(["web-0", "web-1"].map((name) => idsNamed(listings, name)));

    expect(found).toEqual([[], ["kept"]]);
    expect(lister.named.mock.calls.map(([name]) => name)).toEqual(["web-0", "web-1"]);
    // The next creates open a listing of their own again.
    await Promise.all(["web-2", "web-3"].map((name) => idsNamed(listings, name)));
    expect(lister.all).toHaveBeenCalledTimes(2);
  });

  it("named: a create alone asking two names (its creating name and its auto-name) → one listing of the account, not two by name", async () => {
    const { lister } = account([machine("kept", "web-0"), machine("left", "web-0 (creating 0123456789)")]);
    const listings = new NamesakeListings(lister, timing());
    const found = await listings.named(["web-0 (creating 0123456789)", "web-0"]);

    expect(found.map((m) => m.id)).toEqual(["left", "kept"]);
    expect(lister.all).toHaveBeenCalledTimes(1);
    expect(lister.named).not.toHaveBeenCalled();
  });
});
