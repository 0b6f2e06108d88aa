/**
 * The seed format: the default seed is valid and complete; a bad seed fails naming the field.
 */
import { AGENT_TYPES, DEDICATED_GPU_MACHINE_TYPES, REGIONS } from "../../../src/contract/constants";
import { DEFAULT_SEED, parseSeed } from "../../../src/emulator";

describe("seed", () => {
  const seed = parseSeed(DEFAULT_SEED);

  it("default seed: valid, with the three documented keys", () => {
    expect(seed.keys).toEqual({
      individual: "dev-individual-key",
      teamAdmin: "dev-team-admin-key",
      teamMember: "dev-team-member-key",
    });
  });

  it("default seed: one network per region per account", () => {
    for (const owner of ["ujane001", "teacme001"]) {
      const regions = seed.networks
        .filter((n) => n.userId === owner || n.teamId === owner)
        .map((n) => n.region);
      expect(regions.sort()).toEqual([...REGIONS].sort());
    }
  });

  it("default seed: desktop, headless and Windows public templates plus a team template, every agent type", () => {
    const publicOnes = seed.templates.filter((t) => t.teamId === null && t.userId === null);
    expect(publicOnes.map((t) => t.agentType).sort()).toEqual([...AGENT_TYPES].sort());
    for (const t of publicOnes) expect(t.name).toMatch(/^paperspace\/t[0-9a-z]+$/);
    expect(seed.templates.some((t) => t.teamId === "teacme001")).toBe(true);
  });

  it("default seed: availability only for dedicated GPU types, and not every type in every region", () => {
    for (const c of seed.capacity) expect(DEDICATED_GPU_MACHINE_TYPES).toContain(c.machineType);
    const offered = seed.capacity.filter((c) => c.available).length;
    expect(offered).toBeLessThan(REGIONS.length * DEDICATED_GPU_MACHINE_TYPES.length);
  });

  it.each([
    [
      { ...DEFAULT_SEED, keys: { ...DEFAULT_SEED.keys, teamMember: "dev-team-admin-key" } },
      /keys\.teamMember/,
    ],
    [
      { ...DEFAULT_SEED, networks: [{ ...DEFAULT_SEED.networks[0], region: "Mars" }] },
      /networks\.0\.region must be one of/,
    ],
    [{ ...DEFAULT_SEED, users: [{ ...DEFAULT_SEED.users[0], teamId: "tenone" }] }, /users\.0\.teamId tenone/],
    [
      { ...DEFAULT_SEED, templates: [{ ...DEFAULT_SEED.templates[0], agentType: "Mac" }] },
      /templates\.0\.agentType/,
    ],
  ])("parseSeed: bad seed → error naming the field (%#)", (input, message) => {
    expect(() => parseSeed(input)).toThrow(message);
  });
});
