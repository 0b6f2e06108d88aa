/**
 * Machine's in-place settings at create: the four the create endpoint takes travel in the create
 * body, with no update after it; `shutdownTimeoutForces`, which only update takes, still follows
 * in one update; a machine created without them converges when they are declared later.
 */
import { accountOf } from "../../../src/provider/account/accounts";
import { machineWatcherFor } from "../../../src/provider/machine/machineWatcher";
import { checkedMachine, useProviderKit } from "./providerTestKit";
import { CREATE_SETTINGS } from "../../kit/machines";

const kit = useProviderKit();

const CREATE = "POST /machines/createSingleMachinePublic";
const UPDATE = "POST /machines/{machineId}/updateMachinePublic";

const checked = (extra: Record<string, unknown>) => checkedMachine(kit, "settings", extra);

/** Creates through the provider; the create and update requests it made. */
async function createCounting(inputs: Record<string, unknown>) {
  const before = (await kit.control.state()).requestCounts;
  const created = await kit.providers.machine.create(inputs, kit.settings);
  const after = (await kit.control.state()).requestCounts;
  const delta = (route: string) => (after[route] ?? 0) - (before[route] ?? 0);
  return { ...created, creates: delta(CREATE), updates: delta(UPDATE) };
}

const machine = (id: string) => kit.client().machines.get(id);

describe("Machine create: in-place settings", () => {
  it("create: the four settings declared → sent in the create body, no update follows for them (the one update names the machine, the create's last step); machine and outputs hold them", async () => {
    const { id, outs, creates, updates } = await createCounting(await checked(CREATE_SETTINGS));
    expect([creates, updates]).toEqual([1, 1]);
    expect(await machine(id)).toMatchObject({ ...CREATE_SETTINGS, state: "ready" });
    expect(outs).toMatchObject(CREATE_SETTINGS);
  });

  it("create: shutdownTimeoutForces declared too → the create carries the four, one update sets shutdownTimeoutForces", async () => {
    const { id, creates, updates } = await createCounting(
      await checked({ ...CREATE_SETTINGS, shutdownTimeoutForces: true }),
    );
    // One update sets shutdownTimeoutForces, one names the machine at the end.
    expect([creates, updates]).toEqual([1, 2]);
    expect(await machine(id)).toMatchObject({ ...CREATE_SETTINGS, shutdownTimeoutForces: true });
  });

  it('check: autoSnapshotSaveCount "3" → the input becomes 3, so after the create the diff finds no change', async () => {
    const inputs = await checked({ autoSnapshotSaveCount: "3" });
    expect(inputs.autoSnapshotSaveCount).toBe(3);
    const { id, outs } = await kit.providers.machine.create(inputs, kit.settings);
    expect((await machine(id)).autoSnapshotSaveCount).toBe(3);
    const again = await kit.providers.machine.check(
      inputs,
      { ...inputs, autoSnapshotSaveCount: "3" },
      kit.settings,
    );
    expect(await kit.providers.machine.diff(id, outs!, again.inputs)).toMatchObject({ changes: false });
  });

  it("update: a machine created without the settings (as an older version did) → they are declared later and applied in place", async () => {
    const declared = await checked({});
    const { id, outs } = await kit.providers.machine.create(declared, kit.settings);
    const news = { ...declared, ...CREATE_SETTINGS };
    expect(await kit.providers.machine.diff(id, outs!, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await kit.providers.machine.update(id, outs!, news, kit.settings);
    expect(updated.outs).toMatchObject(CREATE_SETTINGS);
    expect(await machine(id)).toMatchObject(CREATE_SETTINGS);
    expect(await kit.providers.machine.diff(id, updated.outs!, news)).toMatchObject({ changes: false });
  });
});

describe("Machine create: namesakes", () => {
  it("create (auto-named): the machines with its creating name or its auto-name are listed before the first attempt, in one listing", async () => {
    const inputs = await checked({});
    expect(inputs.__autoNamed).toBe(true);
    const before = (await kit.control.state()).requestCounts;
    const watcher = machineWatcherFor(accountOf(kit.settings, kit.context));
    const listingsBefore = watcher.listings;
    await kit.providers.machine.create(inputs, kit.settings);
    const after = (await kit.control.state()).requestCounts;
    const LIST = "GET /machines/getMachines";
    // The wait's own listings (the account's watcher) come on top of the one list of namesakes.
    const waitListings = watcher.listings - listingsBefore;
    expect((after[LIST] ?? 0) - (before[LIST] ?? 0) - waitListings).toBe(1);
  });
});
