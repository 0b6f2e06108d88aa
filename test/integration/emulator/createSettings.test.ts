/**
 * The in-place settings createSingleMachinePublic takes (docs/api.md, "Creating a machine"):
 * `shutdownTimeoutInHours`, `performAutoSnapshot`, `autoSnapshotFrequency` and
 * `autoSnapshotSaveCount`, as the service's Terraform provider sends them, kept and reported by
 * show and list; the numeric ones also as a numeric string, in create and in update; a
 * non-numeric string refused naming the field, with nothing changed.
 */
import { NestedErrorBodySchema } from "../../../src/contract/schemas";
import { createBody, useFixture } from "./api";

const fx = useFixture({}, { resetEach: true });

type Machine = Record<string, unknown> & { id: string };

/** What a machine created without any of the settings reports. */
const DEFAULTS = {
  shutdownTimeoutInHours: 1,
  performAutoSnapshot: false,
  autoSnapshotFrequency: null,
  autoSnapshotSaveCount: null,
};

async function create(extra: Record<string, unknown>): Promise<Machine> {
  const res = await fx.individual.post<Machine>("/machines/createSingleMachinePublic", createBody(extra));
  expect(res.status).toBe(200);
  return res.body;
}

/** The machine as show and as list (filtered by machineId) report it. */
async function shownAndListed(id: string): Promise<[Machine, Machine]> {
  const shown = await fx.individual.get<Machine>("/machines/getMachinePublic", { machineId: id });
  const listed = await fx.individual.get<Machine[]>("/machines/getMachines", { machineId: id });
  expect([shown.status, listed.status, listed.body.length]).toEqual([200, 200, 1]);
  return [shown.body, listed.body[0]];
}

async function expectRefused(answer: Promise<{ status: number; body: unknown }>, message: string) {
  const before = await fx.emu.control.state();
  const res = await answer;
  expect(res.status).toBe(400);
  expect(NestedErrorBodySchema.parse(res.body).error).toMatchObject({
    code: "validation_failed",
    message: expect.stringContaining(message),
  });
  const after = await fx.emu.control.state();
  expect([after.machines, after.users]).toEqual([before.machines, before.users]);
}

describe("createSingleMachinePublic: in-place settings", () => {
  it.each([
    ["shutdownTimeoutInHours", 42],
    ["shutdownTimeoutInHours", 0],
    ["performAutoSnapshot", true],
    ["autoSnapshotFrequency", "week"],
    ["autoSnapshotSaveCount", 7],
  ])(
    "create: %s %j → kept; create, show and list report it, the others keep their defaults",
    async (field, value) => {
      const created = await create({ [field]: value });
      const expected = { ...DEFAULTS, [field]: value };
      expect(created).toMatchObject(expected);
      const [shown, listed] = await shownAndListed(created.id);
      expect(shown).toMatchObject(expected);
      expect(listed).toMatchObject(expected);
    },
  );

  it("create: the Terraform provider's body (autoSnapshotSaveCount as a string) → every setting kept, numbers as numbers", async () => {
    // As terraform-provider-paperspace v0.4.5 sends it: auto_snapshot_save_count is a TypeString.
    const created = await create({
      shutdownTimeoutInHours: 42,
      performAutoSnapshot: true,
      autoSnapshotFrequency: "day",
      autoSnapshotSaveCount: "3",
    });
    const expected = {
      shutdownTimeoutInHours: 42,
      performAutoSnapshot: true,
      autoSnapshotFrequency: "day",
      autoSnapshotSaveCount: 3,
    };
    expect(created).toMatchObject(expected);
    for (const reported of await shownAndListed(created.id)) expect(reported).toMatchObject(expected);
  });

  it('create: shutdownTimeoutInHours as " 12 " → kept as the number 12', async () => {
    const created = await create({ shutdownTimeoutInHours: " 12 " });
    const [shown, listed] = await shownAndListed(created.id);
    expect([shown.shutdownTimeoutInHours, listed.shutdownTimeoutInHours]).toEqual([12, 12]);
  });

  it.each([
    [
      { autoSnapshotSaveCount: "three" },
      'autoSnapshotSaveCount must be a whole number or a numeric string such as "3" (got "three")',
    ],
    [
      { shutdownTimeoutInHours: "2.5" },
      'shutdownTimeoutInHours must be a whole number or a numeric string such as "3" (got "2.5")',
    ],
    [{ shutdownTimeoutInHours: 721 }, "shutdownTimeoutInHours"],
    [{ autoSnapshotSaveCount: "1001" }, "autoSnapshotSaveCount"],
    [
      { autoSnapshotFrequency: "month" },
      'autoSnapshotFrequency must be one of: hour, day, week (got "month")',
    ],
    [{ performAutoSnapshot: "yes" }, "performAutoSnapshot must be a boolean (got string)"],
  ])("create: %j → 400 naming the field, nothing created", async (extra, message) => {
    await expectRefused(
      fx.individual.post("/machines/createSingleMachinePublic", createBody(extra)),
      message,
    );
  });
});

describe("updateMachinePublic: numeric settings as strings", () => {
  it('update: autoSnapshotSaveCount "3" and shutdownTimeoutInHours "24" → 204, kept as numbers', async () => {
    const { id } = await create({});
    const res = await fx.individual.post(`/machines/${id}/updateMachinePublic`, {
      autoSnapshotSaveCount: "3",
      shutdownTimeoutInHours: "24",
    });
    expect(res.status).toBe(204);
    for (const reported of await shownAndListed(id)) {
      expect(reported).toMatchObject({ autoSnapshotSaveCount: 3, shutdownTimeoutInHours: 24 });
    }
  });

  it('update: autoSnapshotSaveCount "many" → 400 naming the field, nothing changed', async () => {
    const { id } = await create({});
    await expectRefused(
      fx.individual.post(`/machines/${id}/updateMachinePublic`, { autoSnapshotSaveCount: "many" }),
      'autoSnapshotSaveCount must be a whole number or a numeric string such as "3" (got "many")',
    );
  });
});
