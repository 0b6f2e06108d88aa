/**
 * The emulator's store (src/emulator/state/store.ts): its collections lend records read-only and
 * every write through them marks the store changed, so the state file is written after each
 * change and never after a read; one lookup says who holds a key.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CreateMachineRequestSchema } from "../../../src/contract/requestSchemas";
import { DEFAULT_SEED, parseSeed } from "../../../src/emulator";
import { lifecycleEffects } from "../../../src/emulator/model/lifecycleEffects";
import { createMachine } from "../../../src/emulator/model/machineCreate";
import { ManualClock } from "../../../src/emulator/state/clock";
import { loadState } from "../../../src/emulator/state/persistence";
import { seedToData } from "../../../src/emulator/state/seed";
import { Store } from "../../../src/emulator/state/store";
import { machineRequest, PROVISIONING_MS } from "../../kit/machines";
import { SEEDED } from "../../kit/seeded";

const seed = parseSeed(DEFAULT_SEED);

/** A store on the default seed and a manual clock, its start already saved. */
function seededStore(): Store {
  const clock = new ManualClock(Date.parse(seed.clockStart));
  const store = Store.fromSeed(seed, { clock, timeScale: 1, effectsOf: lifecycleEffects });
  store.save(undefined);
  return store;
}

function jane(store: Store) {
  return store.users.find((u) => u.id === SEEDED.individualUser)!;
}

function newMachine(store: Store, name = "m") {
  return createMachine(store, jane(store), CreateMachineRequestSchema.parse(machineRequest(name)));
}

/** Whether `write` marked the store changed (from a saved store). */
function marks(store: Store, write: () => unknown): boolean {
  store.save(undefined);
  write();
  return store.changed;
}

describe("Store: changes", () => {
  it("fromSeed: a new store → changed (its first state file is written); fromSaved → not", () => {
    const clock = new ManualClock(0);
    const setting = { clock, timeScale: 1, effectsOf: lifecycleEffects };
    expect(Store.fromSeed(seed, setting).changed).toBe(true);
    const saved = { version: 1 as const, clockNow: 0, random: 7, data: seedToData(seed) };
    expect(Store.fromSaved(saved, setting).changed).toBe(false);
  });

  it("writes: every collection operation and every draw → the store is changed", () => {
    const store = seededStore();
    const { id } = newMachine(store);
    const machine = store.machines.live(id)!;
    const network = store.networks.all()[0];
    const capacity = store.capacity.all()[0];
    const writes: Record<string, () => unknown> = {
      "users.add": () => store.users.add({ ...jane(store), id: "u2", apiKey: null, email: "x@example.com" }),
      "networks.change": () => store.networks.change(network, (n) => (n.lastHost += 1)),
      "capacity.change": () => store.capacity.change(capacity, (c) => (c.failNextStarts += 1)),
      "reservedIps.add": () => store.reservedIps.add("100.64.0.9"),
      "machines.change": () => store.machines.change(machine, (m) => (m.name = "renamed")),
      "machines.begin": () =>
        store.machines.begin(machine, "stop", "stopping", { boot: false, failWith: null }, store.now()),
      "scripts.remove": () => store.scripts.remove(store.scripts.all()[0]),
      newId: () => store.newId("x"),
      randomChars: () => store.randomChars(4),
      nextCounter: () => store.nextCounter("staticIp"),
      advanceClock: () => store.advanceClock(1),
      resetTo: () => store.resetTo(seed),
    };
    store.scripts.add({
      id: "sc1",
      ownerType: "user",
      ownerId: SEEDED.individualUser,
      name: "s",
      description: null,
      dtCreated: 0,
      isEnabled: true,
      runOnce: false,
      text: "x",
      runs: {},
    });
    const unmarked = Object.entries(writes)
      .filter(([, write]) => !marks(store, write))
      .map(([name]) => name);
    expect(unmarked).toEqual([]);
  });

  it("reads: a machine read after its provisioning ended → advanced, the store not changed", () => {
    const store = seededStore();
    const { id } = newMachine(store);
    store.advanceClock(PROVISIONING_MS);
    store.save(undefined);
    expect(store.machines.live(id)?.state).toBe("ready");
    expect(store.machines.alive().map((m) => m.id)).toEqual([id]);
    expect(store.machines.all().map((m) => m.state)).toEqual(["ready"]);
    expect(store.keyOwner(seed.keys.individual)?.kind).toBe("user");
    expect(store.changed).toBe(false);
  });

  it("save: a change → the state file written once; unchanged → not written again", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-store-"));
    const file = path.join(dir, "state.json");
    try {
      const store = seededStore();
      newMachine(store);
      store.save(file);
      expect(loadState(file)?.data.machines).toHaveLength(1);
      fs.rmSync(file);
      store.machines.alive();
      store.save(file);
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Store.keyOwner", () => {
  it("keyOwner: a user's key, a delegation's token, an unknown key, an empty key → the user, the delegation, none, none", () => {
    const store = seededStore();
    store.users.add({ ...jane(store), id: "u-keyless", apiKey: null, email: "keyless@example.com" });
    const delegation = store.delegations.add({
      id: 1,
      machineIds: [],
      isEnabled: true,
      accessTokenId: "token-1",
      dtCreated: 0,
      userId: SEEDED.individualUser,
    });
    expect(store.keyOwner(seed.keys.teamAdmin)).toEqual({
      kind: "user",
      user: expect.objectContaining({ id: SEEDED.admin }),
    });
    expect(store.keyOwner("token-1")).toEqual({ kind: "delegation", delegation });
    expect(store.keyOwner("nobody's key")).toBeUndefined();
    expect(store.keyOwner("")).toBeUndefined();
  });
});
