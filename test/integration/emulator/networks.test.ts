/**
 * Private addresses: a machine created without `networkId` goes to the region's first network
 * that still has a free address; only when every network of the region is full is it refused.
 */
import { DEFAULT_SEED } from "../../../src/emulator";
import { createBody, useFixture } from "./api";
import { SEEDED } from "../../kit/seeded";

const SPARE = {
  id: "nindny2b",
  name: "Jane East Coast (NY2) second",
  region: "East Coast (NY2)",
  dtCreated: "2025-06-01T12:00:00.000Z",
  network: "10.64.9.0",
  netmask: "255.255.255.0",
  teamId: null,
  userId: SEEDED.individualUser,
};

const fx = useFixture({ seed: { ...DEFAULT_SEED, networks: [...DEFAULT_SEED.networks, SPARE] } });

it("create: first network of the region full → the next one with room; all full → 409 naming the network", async () => {
  const create = (i: number) =>
    fx.individual.post("/machines/createSingleMachinePublic", createBody({ machineName: `n-${i}` }));
  const first = await Promise.all(Array.from({ length: 245 }, (_, i) => create(i)));
  expect(new Set(first.map((a) => (a.body as { networkId: string }).networkId))).toEqual(
    new Set([SEEDED.individualNy2Network]),
  );
  const next = await create(245);
  expect(next.status).toBe(200);
  expect(next.body).toMatchObject({ networkId: SPARE.id });
  await Promise.all(Array.from({ length: 244 }, (_, i) => create(246 + i)));
  const full = await create(999);
  expect(full.status).toBe(409);
  expect(JSON.stringify(full.body)).toContain("no free private addresses");
});
