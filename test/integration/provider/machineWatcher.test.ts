/**
 * The account's machine watcher (machineWatcher.ts) on the emulator's manual clock: waits share
 * one listing per interval, a machine is read alone only when its state calls for it, and every
 * guarantee of a wait stays (a machine gone meanwhile fails its wait with its 404, a listing that
 * fails loses no waiter, a start that fell back to `off` fails fast on its error event).
 * Requests are counted with the emulator's `requestCounts`.
 */
import { accountOf } from "../../../src/provider/account/accounts";
import { VmApiClient } from "../../../src/client/client";
import type { Machine } from "../../../src/contract/schemas";
import { providerContext } from "../../../src/provider/account/context";
import { machineWatcherFor } from "../../../src/provider/machine/machineWatcher";
import { hasName } from "../../kit/machines";
import { MACHINE_BASICS, partialFailureOf, providersOn, useProviderKit } from "./providerTestKit";

type Props = Record<string, unknown>;

const LIST = "GET /machines/getMachines";
const SHOW = "GET /machines/getMachinePublic";
/** The options settle.ts gives a provisioning wait (pollScale 1). */
const PROVISIONING_WAIT = {
  timeoutMs: 20 * 60_000,
  firstPollDelayMs: 30_000,
  pollPolicy: { initialDelayMs: 1_000, maxDelayMs: 10_000 },
};

const kit = useProviderKit();

/** API requests per route since `before`. */
async function requestsSince(before: Record<string, number>): Promise<Record<string, number>> {
  const after = (await kit.control.state()).requestCounts;
  const routes = [...new Set([...Object.keys(after), LIST, SHOW])];
  return Object.fromEntries(routes.map((route) => [route, (after[route] ?? 0) - (before[route] ?? 0)]));
}

async function counts(): Promise<Record<string, number>> {
  return (await kit.control.state()).requestCounts;
}

/** Machines made out of band, still provisioning (the clock does not move meanwhile). */
async function provisioning(prefix: string, n: number): Promise<Machine[]> {
  const made: Machine[] = [];
  for (let i = 0; i < n; i++) {
    const body = { ...MACHINE_BASICS, templateId: kit.templateId, machineName: `${prefix}-${i}` };
    made.push(await kit.client().machines.create(body, { uniqueName: true }));
  }
  return made;
}

async function checked(name: string, overrides: Props = {}): Promise<Props> {
  const news = { __resourceName: name, name, ...MACHINE_BASICS, templateId: kit.templateId, ...overrides };
  const { inputs, failures } = await kit.providers.machine.check({}, news, kit.settings);
  expect(failures).toEqual([]);
  return inputs!;
}

describe("one watcher per account", () => {
  it("watcher: 6 waits registered together → one listing where a wait alone polls once, and no show: each ends as listed once ready", async () => {
    const client = new VmApiClient({ ...kit.settings, ...kit.context.timing });
    const watcher = machineWatcherFor(accountOf(kit.settings, kit.context));
    const wait = (m: Machine) =>
      watcher.waitFor(client, m.id, "ready", { ...PROVISIONING_WAIT, baseline: m });

    const [alone] = await provisioning("watch-alone", 1);
    let before = await counts();
    await expect(wait(alone)).resolves.toMatchObject({ id: alone.id, state: "ready" });
    const aloneRequests = await requestsSince(before);

    const fleet = await provisioning("watch-fleet", 6);
    before = await counts();
    const settled = await Promise.all(fleet.map(wait));
    const fleetRequests = await requestsSince(before);

    expect(settled.map((m) => m.state)).toEqual(fleet.map(() => "ready"));
    // Each returned machine comes from the listing: it has no events (a show would have them).
    expect(settled.every((m) => m.events === undefined)).toBe(true);
    // A wait alone polls with shows (one request either way, and a show has the events)...
    expect(aloneRequests[LIST]).toBe(0);
    expect(aloneRequests[SHOW]).toBeGreaterThan(1);
    // ...six waits take one listing for each of those polls, and the listing that sees them
    // ready ends their waits: no show at all (before: one show each once ready).
    expect(fleetRequests[LIST]).toBe(aloneRequests[SHOW]);
    expect(fleetRequests[SHOW]).toBe(0);
    expect(watcher.size).toBe(0);
  });

  it("create: 8 machines at once → their waits share listings, each machine shown about once (≤ 2 requests per machine beyond its create)", async () => {
    const inputs = await Promise.all(Array.from({ length: 8 }, (_, i) => checked(`fleet-${i}`)));
    const before = await counts();
    const created = await Promise.all(inputs.map((i) => kit.providers.machine.create(i, kit.settings)));
    const requests = await requestsSince(before);

    expect(created.map((c) => c.outs?.currentState)).toEqual(inputs.map(() => "ready"));
    expect(requests["POST /machines/createSingleMachinePublic"]).toBe(8);
    // Each create lists its namesakes once; the waits listed too (before, each polled alone).
    const namesakeLists = 8;
    expect(requests[LIST]).toBeGreaterThan(namesakeLists);
    // Beyond its create: the shared listings and one show when ready (a round in which one wait
    // was alone, before the others came, showed it instead of listing).
    expect((requests[LIST] - namesakeLists + requests[SHOW]) / 8).toBeLessThanOrEqual(2);
    expect(requests[SHOW]).toBeLessThan(2 * 8);
  });

  it("create: one of two machines deleted between two listings → the next listing misses it, its own show answers 404: that create is a partial failure, the other goes on", async () => {
    let deleted: string | undefined;
    const clock = kit.clock.fork(async () => {
      // After a listing of the watcher saw it provisioning, someone deletes it.
      if (deleted === undefined && machineWatcherFor(accountOf(kit.settings, context)).listings === 1) {
        const [machine] = (await kit.client().machines.list()).filter((m) =>
          hasName(m, "deleted-while-watched"),
        );
        deleted = machine.id;
        await kit.client().machines.destroy(machine.id);
      }
    });
    const context = providerContext({ ...kit.context, timing: { ...kit.context.timing, ...clock.timing() } });
    const provider = providersOn(context, kit.settings).machine;
    const inputs = [await checked("deleted-while-watched"), await checked("kept-while-watched")];
    const [gone, kept] = await Promise.allSettled(inputs.map((i) => provider.create(i, kit.settings)));

    expect(kept).toMatchObject({ status: "fulfilled", value: { outs: { currentState: "ready" } } });
    const failure = await partialFailureOf(Promise.reject((gone as PromiseRejectedResult).reason));
    expect(failure.id).toBe(deleted);
    expect(failure.message).toMatch(/not found/i);
    // The listing that saw it, then one that missed it (and its show's 404).
    expect(machineWatcherFor(accountOf(kit.settings, context)).listings).toBeGreaterThanOrEqual(2);
    expect(machineWatcherFor(accountOf(kit.settings, context)).size).toBe(0);
  });

  it("watcher: a listing fails even after its retries → each due waiter reads its machine alone that round; none is lost", async () => {
    const client = new VmApiClient({ ...kit.settings, ...kit.context.timing, maxRetries: 1 });
    const context = providerContext({ ...kit.context });
    const watcher = machineWatcherFor(accountOf({ ...kit.settings }, context));
    const machines = await provisioning("watch-faulty", 3);
    // The watcher lists with the provider's client (6 retries): 7 failures fail one listing.
    await kit.control.addFaults([{ method: "GET", route: "/machines/getMachines", status: 500, times: 7 }]);
    const before = await counts();
    const settled = await Promise.all(
      machines.map((m) => watcher.waitFor(client, m.id, "ready", { ...PROVISIONING_WAIT, baseline: m })),
    );
    const requests = await requestsSince(before);

    expect(settled.map((m) => m.state)).toEqual(["ready", "ready", "ready"]);
    expect((await kit.control.state()).faults).toEqual([]);
    expect(requests[LIST]).toBeGreaterThanOrEqual(7);
    // The failed round read each machine alone (provisioning still); a later listing saw them
    // ready and ended their waits without a show.
    expect(requests[SHOW]).toBe(3);
  });

  it("update: two starts together, one falls back to off (capacity) → the listing's off calls for a show, whose error event fails that wait at once; the other ends ready", async () => {
    const region = "Europe (AMS1)";
    const made = await Promise.all(
      ["falls-back-a", "falls-back-b"].map(async (name) =>
        kit.providers.machine.create(
          await checked(name, { state: "off", region, machineType: "C6" }),
          kit.settings,
        ),
      ),
    );
    expect(made.map((m) => m.outs?.currentState)).toEqual(["off", "off"]);
    await kit.control.capacity({ region, machineType: "C6", failNextStarts: 1 });
    const before = await counts();
    const results = await Promise.allSettled(
      made.map(({ id, outs }) =>
        kit.providers.machine.update(id, outs!, { ...outs, state: "ready" } as Props, kit.settings),
      ),
    );
    const requests = await requestsSince(before);

    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(failed).toHaveLength(1);
    const failure = await partialFailureOf(Promise.reject(failed[0].reason));
    expect(failure.message).toMatch(/start failed: insufficient capacity/);
    expect(failure.properties).toMatchObject({ state: "ready", currentState: "off" });
    expect(results.find((r) => r.status === "fulfilled")).toMatchObject({
      value: { outs: { currentState: "ready" } },
    });
    expect(requests[LIST]).toBeGreaterThanOrEqual(1);
    // Each update's read; the show the listed `off` called for and the partial failure's read;
    // the other's show once ready; at most one round in which one wait was alone (it came
    // first) and was shown. Before: each 30 s start was polled alone at 1, 3, 7, 15, 25, 35 s.
    expect(requests[SHOW]).toBeLessThanOrEqual(2 + 2 + 1 + 1);
  });
});
