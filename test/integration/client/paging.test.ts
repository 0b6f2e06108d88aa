/** `machines.listAll` over 2,500 machines on the emulator. */
import { collect } from "../../../src/client/core/pagination";
import { DEFAULT_SEED } from "../../../src/emulator";
import { countDelta, machineRequest, useHarness } from "./harness";
import { SEEDED } from "../../kit/seeded";

const TOTAL = 2_500;
const BATCH = 50;
/** A seeded network holds 245 machines: the seed gets enough extra ones in the region. */
const NETWORKS = Array.from({ length: 12 }, (_, i) => ({
  id: `npaging${i}`,
  name: `paging ${i}`,
  region: "East Coast (NY2)",
  dtCreated: "2025-06-01T12:00:00.000Z",
  network: `10.100.${i}.0`,
  netmask: "255.255.255.0",
  teamId: null,
  userId: SEEDED.individualUser,
}));

const h = useHarness({ seed: { ...DEFAULT_SEED, networks: [...DEFAULT_SEED.networks, ...NETWORKS] } });
beforeAll(async () => {
  // Plain POSTs: the client's create also snapshots namesakes, a list per machine, which is not
  // what this file tests and would make the setup quadratic.
  const create = async (n: number) => {
    const body = machineRequest(`p-${n}`, {
      startOnCreate: false,
      networkId: NETWORKS[n % NETWORKS.length].id,
    });
    const response = await fetch(`${h.url}/machines/createSingleMachinePublic`, {
      method: "POST",
      headers: { "X-Api-Key": h.emu.keys.individual, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`create ${n}: ${response.status} ${await response.text()}`);
  };
  for (let i = 0; i < TOTAL; i += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, TOTAL - i) }, (_, j) => create(i + j)));
  }
}, 60_000);

describe("machines.listAll", () => {
  it("listAll: 2,500 machines → each once, in 3 pages of ≤ 1,000", async () => {
    const before = await h.counts();
    const ids = new Set<string>();
    for await (const machine of h.client().machines.listAll()) ids.add(machine.id);
    expect(ids.size).toBe(TOTAL);
    expect(countDelta(before, await h.counts())).toEqual({ "GET /machines/getMachines": 3 });
  });

  it("listAll.pages with pageSize 400 and a filter → 7 pages, page sizes as asked", async () => {
    const sizes: number[] = [];
    for await (const page of h
      .client()
      .machines.listAll({ state: "provisioning" }, { pageSize: 400 })
      .pages()) {
      sizes.push(page.length);
    }
    expect(sizes).toEqual([400, 400, 400, 400, 400, 400, 100]);
  });

  it("collect: bound below the total → refused after the page that crosses it", async () => {
    await expect(collect(h.client().machines.listAll(), { max: 1500 })).rejects.toThrow(
      /more than 1500 items/,
    );
  });

  it("listAll: bad page size → ValidationError before any request", () => {
    expect(() => h.client().machines.listAll({}, { pageSize: 5000 })).toThrow(/limit/);
  });
});
