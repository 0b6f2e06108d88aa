/**
 * FreshListings with a fake lister on an injected clock: creates that start together share one
 * listing of the account, and no create is ever served by a listing sent before it began (the
 * guarantee a create's own listing gave).
 */
import { FreshListings, type Lister } from "../../../src/provider/account/freshListings";

type Record = { id: string; name: string };
const record = (id: string, name: string): Record => ({ id, name });

/** A clock whose sleep only moves time, and lets other tasks run first. */
function timing() {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

/** An account holding `records` (mutable), listed by a mock that counts its calls. */
function account(records: Record[]) {
  const lister = jest.fn<ReturnType<Lister<Record>>, Parameters<Lister<Record>>>(async (onSent) => {
    onSent();
    return [...records];
  });
  return { lister, records };
}

/** One step of a test that another waits for: `reached` resolves once `reach` is called. */
function step(): { reached: Promise<void>; reach: () => void } {
  let reach: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

describe("FreshListings", () => {
  it("list: 5 creates in one window → one listing of the account, each gets all of it", async () => {
    const { lister } = account([record("kept", "web-2"), record("other", "db-0")]);
    const listings = new FreshListings(lister, timing());
    const found = await Promise.all(Array.from({ length: 5 }, () => listings.list()));

    expect(found.map((all) => all.map((r) => r.id))).toEqual(Array(5).fill(["kept", "other"]));
    expect(lister).toHaveBeenCalledTimes(1);
    expect(listings.listings).toBe(1);
  });

  it("list: a create that begins after the shared listing was sent → never served by it: the next listing has a record made meanwhile", async () => {
    const { lister, records } = account([]);
    const answered = step();
    const sent = step();
    // The first listing leaves, then waits for its answer until the test releases it.
    lister.mockImplementationOnce(async (onSent) => {
      onSent();
      const snapshot = [...records];
      sent.reach();
      await answered.reached;
      return snapshot;
    });
    const listings = new FreshListings(lister, timing());
    const first = [listings.list(), listings.list()];
    await sent.reached;
    // After that listing left, a record appears (a late create of a killed `up`)...
    records.push(record("late", "web-2"));
    // ...and two creates begin: they may not use the listing in flight.
    const second = [listings.list(), listings.list()];
    answered.reach();

    expect((await Promise.all(first)).map((all) => all.length)).toEqual([0, 0]);
    expect((await Promise.all(second)).map((all) => all.map((r) => r.id))).toEqual([["late"], ["late"]]);
    expect(lister).toHaveBeenCalledTimes(2);
  });

  it("list: creates that arrive while the listing waits for its turn (not sent yet) → they join it", async () => {
    const { lister } = account([record("kept", "web-3")]);
    const granted = step();
    const queued = step();
    lister.mockImplementationOnce(async (onSent) => {
      queued.reach();
      await granted.reached; // the account's rate limiter holds it
      onSent();
      return [record("kept", "web-3")];
    });
    const listings = new FreshListings(lister, timing());
    const early = [listings.list(), listings.list()];
    await queued.reached;
    const late = [listings.list(), listings.list()];
    granted.reach();

    expect((await Promise.all([...early, ...late])).map((all) => all.length)).toEqual([1, 1, 1, 1]);
    expect(lister).toHaveBeenCalledTimes(1);
  });

  it("list: the shared listing fails after its retries → each create lists on its own; none fails for it", async () => {
    const { lister } = account([record("kept", "web-1")]);
    lister.mockRejectedValueOnce(new Error("503 after 6 retries"));
    const listings = new FreshListings(lister, timing());
    const found = await Promise.all([listings.list(), listings.list()]);

    expect(found.map((all) => all.map((r) => r.id))).toEqual([["kept"], ["kept"]]);
    expect(lister).toHaveBeenCalledTimes(3);
    // The next creates share a listing of their own again.
    await Promise.all([listings.list(), listings.list()]);
    expect(lister).toHaveBeenCalledTimes(4);
  });
});
