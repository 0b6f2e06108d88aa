/**
 * The account's machine watcher (machineWatcher.ts) on the emulator's manual clock: waits share
 * one listing per interval, a machine is read alone only when its state calls for it, and every
 * guarantee of a wait stays (a machine gone meanwhile fails its wait with its 404, a listing that
 * fails loses no waiter, a start that fell back to `off` fails fast on its error event).
 * Requests are counted with the emulator's `requestCounts`.
 */
import { VmApiClient } from "../../../src/client/client";
import type { Machine } from "../../../src/client/schemas";
import { providerContext } from "../../../src/provider/context";
import { machineWatcherFor } from "../../../src/provider/machineWatcher";
import { addFaults, setCapacity, state } from "../../helpers/emulator";
import {
  MACHINE_BASICS,
  partialFailureOf,
  providersOn,
  startProviderKit,
  ubuntuTemplateId,
  type ProviderKit,
} from "./providerTestKit";

type Props = Record<string, unknown>;

const LIST = "GET /machines/getMachines";
const SHOW = "GET /machines/getMachinePublic";
/** The options settle.ts gives a provisioning wait (pollScale 1). */
const PROVISIONING_WAIT = {
  timeoutMs: 20 * 60_000,
  firstPollDelayMs: 30_000,
  pollPolicy: { initialDelayMs: 1_000, maxDelayMs: 10_000 },
};

let kit: ProviderKit;
let templateId: string;

beforeAll(async () => {
  kit = await startProviderKit();
  templateId = await ubuntuTemplateId(kit);
});
afterAll(() => kit.close());

/** Someone else on the same account: a client of its own, not the provider's. */
function outOfBand(): VmApiClient {
  return new VmApiClient(kit.settings);
}

/** API requests per route since `before`. */
async function requestsSince(before: Record<string, number>): Promise<Record<string, number>> {
  const after = (await state(kit.url)).requestCounts;
  return Object.fromEntries(Object.keys(after).map((route) => [route, after[route] - (before[route] ?? 0)]));
}

async function counts(): Promise<Record<string, number>> {
  return (await state(kit.url)).requestCounts;
}

/** Machines made out of band, still provisioning (the clock does not move meanwhile). */
async function provisioning(prefix: string, n: number): Promise<Machine[]> {
  const made: Machine[] = [];
  for (let i = 0; i < n; i++) {
    const body = { ...MACHINE_BASICS, templateId, machineName: `${prefix}-${i}` };
    made.push(await outOfBand().machines.create(body, { uniqueName: true }));
  }
  return made;
}

async function checked(name: string, overrides: Props = {}): Promise<Props> {
  const news = { __resourceName: name, name, ...MACHINE_BASICS, templateId, ...overrides };
  const { inputs, failures } = await kit.providers.machine.check({}, news, kit.settings);
  expect(failures).toEqual([]);
  return inputs!;
}

describe("one watcher per account", () => {
  it("watcher: 6 waits registered together → the listings one wait alone takes, and one show per machine (when it is ready)", async () => {
    const client = new VmApiClient({ ...kit.settings, ...kit.context.timing });
    const watcher = machineWatcherFor(kit.context, kit.settings);
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
    // Each returned machine comes from a show: it has its events.
    expect(settled.every((m) => Array.isArray(m.events))).toBe(true);
    expect(aloneRequests[LIST]).toBeGreaterThan(0);
    expect(fleetRequests[LIST]).toBe(aloneRequests[LIST]);
    expect(aloneRequests[SHOW]).toBe(1);
    expect(fleetRequests[SHOW]).toBe(fleet.length);
    expect(watcher.size).toBe(0);
  });

  it("create: 8 machines at once → each shown once, when ready; their waits share listings (≤ 2 requests per machine beyond its create)", async () => {
    const inputs = await Promise.all(Array.from({ length: 8 }, (_, i) => checked(`fleet-${i}`)));
    const before = await counts();
    const created = await Promise.all(inputs.map((i) => kit.providers.machine.create(i, kit.settings)));
    const requests = await requestsSince(before);

    expect(created.map((c) => c.outs?.currentState)).toEqual(inputs.map(() => "ready"));
    expect(requests["POST /machines/createSingleMachinePublic"]).toBe(8);
    // Before, each wait polled its machine alone (about 6 shows per provisioning in real time).
    expect(requests[SHOW]).toBe(8);
    // Beyond its create (and the create's one list of namesakes): the shared listings and one show.
    const namesakeLists = 8;
    expect((requests[LIST] - namesakeLists + requests[SHOW]) / 8).toBeLessThanOrEqual(2);
  });

  it("create: machine deleted between two listings → the next listing misses it, its own show answers 404, and the create is a partial failure", async () => {
    let simulatedNow = kit.now();
    let deleted: string | undefined;
    const context = providerContext({
      ...kit.context,
      timing: {
        ...kit.context.timing,
        now: () => simulatedNow,
        sleep: async (ms: number) => {
          simulatedNow += ms;
          kit.advance(ms);
          // After the watcher's first listing saw it provisioning, someone deletes it.
          if (deleted === undefined && machineWatcherFor(context, kit.settings).listings === 1) {
            const [machine] = await outOfBand().machines.list({ name: "deleted-while-watched" });
            deleted = machine.id;
            await outOfBand().machines.destroy(machine.id);
          }
        },
      },
    });
    const provider = providersOn(context).machine;
    const before = await counts();
    const failure = await partialFailureOf(
      provider.create(await checked("deleted-while-watched"), kit.settings),
    );
    const requests = await requestsSince(before);

    expect(failure.id).toBe(deleted);
    expect(failure.message).toMatch(/not found/i);
    // Two listings: the one that saw it, the one that missed it (then its show's 404)...
    expect(machineWatcherFor(context, kit.settings).listings).toBe(2);
    // ...besides the create's list of namesakes and the deleter's lookup by name.
    expect(requests[LIST]).toBe(4);
    expect(machineWatcherFor(context, kit.settings).size).toBe(0);
  });

  it("watcher: a listing fails even after its retries → each due waiter reads its machine alone that round; none is lost", async () => {
    const client = new VmApiClient({ ...kit.settings, ...kit.context.timing, maxRetries: 1 });
    const context = providerContext({ ...kit.context });
    const watcher = machineWatcherFor(context, { ...kit.settings });
    const machines = await provisioning("watch-faulty", 3);
    // The watcher lists with the provider's client (6 retries): 7 failures fail one listing.
    await addFaults(kit.url, [{ method: "GET", route: "/machines/getMachines", status: 500, times: 7 }]);
    const before = await counts();
    const settled = await Promise.all(
      machines.map((m) => watcher.waitFor(client, m.id, "ready", { ...PROVISIONING_WAIT, baseline: m })),
    );
    const requests = await requestsSince(before);

    expect(settled.map((m) => m.state)).toEqual(["ready", "ready", "ready"]);
    expect((await state(kit.url)).faults).toEqual([]);
    expect(requests[LIST]).toBeGreaterThanOrEqual(7);
    // The failed round read each machine alone (provisioning still), then each was shown once ready.
    expect(requests[SHOW]).toBe(6);
  });

  it("update: a start that falls back to off (capacity) → the listing's off calls for a show, whose error event fails the wait at once", async () => {
    const { id, outs } = await kit.providers.machine.create(
      await checked("start-falls-back", { state: "off", region: "Europe (AMS1)", machineType: "C6" }),
      kit.settings,
    );
    expect(outs).toMatchObject({ currentState: "off" });
    await setCapacity(kit.url, { region: "Europe (AMS1)", machineType: "C6", failNextStarts: 1 });
    const before = await counts();
    const news = { ...outs, state: "ready" };
    const failure = await partialFailureOf(kit.providers.machine.update(id, outs, news, kit.settings));
    const requests = await requestsSince(before);

    expect(failure.message).toMatch(/start failed: insufficient capacity/);
    expect(failure.properties).toMatchObject({ state: "ready", currentState: "off" });
    expect(requests[LIST]).toBeGreaterThanOrEqual(1);
    // The update's read, the show the listed `off` called for, and the partial failure's read.
    // Before: a 30 s start was polled alone at 1, 2, 4, 8, 16 s and more.
    expect(requests[SHOW]).toBe(3);
  });
});
