/** Every machine method against the emulator over loopback (manual clock). */
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
  type VmApiError,
} from "../../../src/client/core/errors";
import { countDelta, machineRequest, PROVISIONING_MS, useHarness } from "./harness";
import { SEEDED } from "../../kit/seeded";

const h = useHarness();

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as VmApiError,
  );

describe("machines", () => {
  it("create → provisioning machine, then ready after the provisioning time", async () => {
    const client = h.client();
    const created = await client.machines.create(machineRequest("m-create"));
    expect(created).toMatchObject({ name: "m-create", state: "provisioning", machineType: "C4" });
    h.advance(PROVISIONING_MS);
    const shown = await client.machines.get(created.id);
    expect(shown.state).toBe("ready");
    expect(shown.events?.[0]).toMatchObject({ state: "done" });
  });

  it("get: unknown id → NotFoundError with status, code, method and path", async () => {
    const error = await fail(h.client().machines.get("psnope"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: "not_found",
      method: "GET",
      path: "/machines/getMachinePublic",
    });
  });

  it("list: filters by name, state and null → only matches; limit/skip page", async () => {
    const client = h.client();
    const a = await client.machines.create(machineRequest("m-list", { startOnCreate: false }));
    const b = await client.machines.create(machineRequest("m-list", { startOnCreate: false }));
    const byName = await client.machines.list({ name: "m-list" });
    expect(byName.map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
    expect(byName[0].internalId).toEqual(expect.any(Number));
    expect(await client.machines.list({ name: "m-list", state: "ready" })).toEqual([]);
    expect((await client.machines.list({ name: "m-list", scriptId: null })).length).toBe(2);
    const page1 = await client.machines.list({ name: "m-list" }, { limit: 1 });
    const page2 = await client.machines.list({ name: "m-list" }, { limit: 1, skip: 1 });
    expect([page1[0].id, page2[0].id].sort()).toEqual([a.id, b.id].sort());
    expect(await client.machines.list({ machineId: a.id })).toHaveLength(1);
  });

  it("start, stop, restart → the lifecycle of the emulator", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("m-ops"));
    h.advance(PROVISIONING_MS);
    await client.machines.stop(m.id);
    expect((await client.machines.get(m.id)).state).toBe("stopping");
    await client.machines.stop(m.id); // a repeat is a no-op
    h.advance(60_000);
    expect((await client.machines.get(m.id)).state).toBe("off");
    await client.machines.start(m.id);
    expect((await client.machines.get(m.id)).state).toBe("starting");
    h.advance(60_000);
    await client.machines.restart(m.id);
    expect((await client.machines.get(m.id)).state).toBe("restarting");
  });

  it("start: machine still provisioning → ConflictError", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("m-conflict"));
    const error = await fail(client.machines.start(m.id));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, method: "POST", path: `/machines/${m.id}/start` });
  });

  it("update → fields changed", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("m-update"));
    await client.machines.update(m.id, {
      machineName: "m-updated",
      shutdownTimeoutInHours: 4,
      performAutoSnapshot: true,
      autoSnapshotFrequency: "day",
      autoSnapshotSaveCount: 3,
    });
    expect(await client.machines.get(m.id)).toMatchObject({
      name: "m-updated",
      shutdownTimeoutInHours: 4,
      performAutoSnapshot: true,
      autoSnapshotFrequency: "day",
      autoSnapshotSaveCount: 3,
    });
  });

  it("create with the in-place settings → in the create request, no update; created and get report them", async () => {
    const client = h.client();
    const before = await h.counts();
    const settings = {
      shutdownTimeoutInHours: 42,
      performAutoSnapshot: true,
      autoSnapshotFrequency: "day" as const,
      autoSnapshotSaveCount: 3,
    };
    const created = await client.machines.create(machineRequest("m-settings", settings));
    const delta = countDelta(before, await h.counts());
    expect(delta["POST /machines/createSingleMachinePublic"]).toBe(1);
    expect(delta["POST /machines/{machineId}/updateMachinePublic"]).toBeUndefined();
    expect(created).toMatchObject(settings);
    expect(await client.machines.get(created.id)).toMatchObject(settings);
  });

  it('create and update: autoSnapshotSaveCount "3" (as the Terraform provider sends it) → 3', async () => {
    const client = h.client();
    const created = await client.machines.create(machineRequest("m-string", { autoSnapshotSaveCount: "3" }));
    expect(created.autoSnapshotSaveCount).toBe(3);
    await client.machines.update(created.id, { autoSnapshotSaveCount: "5", shutdownTimeoutInHours: "6" });
    expect(await client.machines.get(created.id)).toMatchObject({
      autoSnapshotSaveCount: 5,
      shutdownTimeoutInHours: 6,
    });
  });

  it('create and update: autoSnapshotSaveCount "three" → ValidationError naming the field, no request sent', async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("m-three"));
    const before = await h.counts();
    const refusals = [
      await fail(client.machines.create(machineRequest("m-three", { autoSnapshotSaveCount: "three" }))),
      await fail(client.machines.update(m.id, { autoSnapshotSaveCount: "three" })),
    ];
    for (const error of refusals) {
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toContain(
        'autoSnapshotSaveCount must be a whole number or a numeric string such as "3" (got "three")',
      );
    }
    expect(countDelta(before, await h.counts())).toEqual({});
  });

  it("destroy({ releasePublicIp }) → gone; a second destroy → NotFoundError", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("m-destroy", { assignPublicIp: true }));
    await client.machines.destroy(m.id, { releasePublicIp: true });
    await expect(client.machines.get(m.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.machines.destroy(m.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("setAccess: team admin grants and revokes a member → resolves", async () => {
    const admin = h.client({ key: "teamAdmin" });
    const m = await admin.machines.create(
      machineRequest("m-access", { teamId: SEEDED.team, userId: SEEDED.admin }),
    );
    await expect(
      admin.machines.setAccess(m.id, { userId: SEEDED.member, enableAccess: true }),
    ).resolves.toBeUndefined();
    await expect(
      admin.machines.setAccess(m.id, { userId: SEEDED.member, enableAccess: false }),
    ).resolves.toBeUndefined();
  });

  it("utilization → usage of the billing month", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("m-usage"));
    h.advance(PROVISIONING_MS + 3_600_000);
    const month = (await client.machines.get(m.id)).dtCreated.slice(0, 7);
    const usage = await client.machines.utilization(m.id, month);
    expect(usage).toMatchObject({ machineId: m.id, utilization: { machineId: m.id, billingMonth: month } });
    expect(usage.utilization.secondsUsed).toBeGreaterThan(0);
  });

  it("availability → the seeded capacity", async () => {
    const client = h.client();
    await expect(client.machines.availability("East Coast (NY2)", "V100")).resolves.toEqual({
      available: true,
    });
    await expect(client.machines.availability("West Coast (CA1)", "P6000")).resolves.toEqual({
      available: false,
    });
  });
});

describe("machines: refusals", () => {
  it("create: team member → PermissionDeniedError", async () => {
    const member = h.client({ key: "teamMember" });
    const error = await fail(member.machines.create(machineRequest("m-member", { teamId: SEEDED.team })));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.status).toBe(403);
  });

  it("any call: unknown key → AuthenticationError without the key anywhere", async () => {
    const client = h.client({ apiKey: "wrong-secret-key" });
    const error = await fail(client.machines.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(`${error.message} ${JSON.stringify(error)} ${error.stack}`).not.toContain("wrong-secret-key");
  });

  it("create: Windows template with a CPU type → BadRequestError from the server", async () => {
    const error = await fail(
      h.client().machines.create(machineRequest("m-win", { templateId: SEEDED.windowsTemplate })),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).not.toBeInstanceOf(ValidationError);
    expect(error.status).toBe(400);
  });

  it("create: bad enum or mutual exclusion → ValidationError (not a BadRequestError), no request sent", async () => {
    const client = h.client();
    const before = await h.counts();
    const badRegion = await fail(
      client.machines.create({ ...machineRequest("m-bad"), region: "Mars" as never }),
    );
    expect(badRegion).toBeInstanceOf(ValidationError);
    // Nothing was sent, so it is not the server's 400: a caller can tell the two apart.
    expect(badRegion).not.toBeInstanceOf(BadRequestError);
    expect(badRegion.status).toBeUndefined();
    expect(badRegion.message).toMatch(
      /region must be one of: West Coast \(CA1\), East Coast \(NY2\), Europe \(AMS1\)/,
    );
    const both = await fail(
      client.machines.create(machineRequest("m-bad", { assignPublicIp: true, dynamicPublicIp: true })),
    );
    expect(both.message).toMatch(/assignPublicIp and dynamicPublicIp cannot be combined/);
    await expect(client.machines.list({ id: "x" } as never)).rejects.toThrow(/unknown filter id/);
    await expect(client.machines.availability("East Coast (NY2)", "C4" as never)).rejects.toThrow(
      ValidationError,
    );
    await expect(client.machines.utilization("ps1", "2026-13")).rejects.toThrow(/billingMonth/);
    await expect(client.machines.waitFor("ps1", "running" as never)).rejects.toThrow(ValidationError);
    await expect(client.machines.start("")).rejects.toThrow(ValidationError);
    expect(countDelta(before, await h.counts())).toEqual({});
  });
});
