/**
 * paperspace-node 0.2.4's `machines` methods, unchanged, against the emulator: each method with
 * its documented argument shapes gets the answer docs/api.md describes.
 */
import {
  MachineListSchema,
  MachineSchema,
  ScriptSchema,
  UtilizationSchema,
} from "../../../../src/contract/schemas";
import { expectHttpError, expectOk, onEmulatorTime, useClientFixture } from "./harness";
import { SEEDED } from "../../../kit/seeded";
import { MACHINE_BASICS } from "../../../kit/machines";

const fx = useClientFixture();

/** A machine of the create example's shape (C4 on the desktop template: ready 60 s after create). */
const CREATE = {
  ...MACHINE_BASICS,
  machineName: "My Machine 1",
  templateId: SEEDED.desktopTemplate,
};

async function created(extra: Record<string, unknown> = {}, key?: string): Promise<string> {
  return expectOk(await fx.call<{ id: string }>("machines.create", { ...CREATE, ...extra }, key)).id;
}

async function shown(machineId: string) {
  return MachineSchema.parse(expectOk(await fx.call("machines.show", { machineId })));
}

describe("paperspace-node machines", () => {
  it("machines.create: every documented option → a provisioning machine, hardware and addresses null", async () => {
    const machine = expectOk(
      await fx.call("machines.create", {
        ...CREATE,
        assignPublicIp: true,
        networkId: SEEDED.individualNy2Network,
        notificationEmail: "jane@example.com",
      }),
    );
    const parsed = MachineSchema.strict().parse(machine);
    expect(parsed).toMatchObject({
      state: "provisioning",
      name: "My Machine 1",
      networkId: SEEDED.individualNy2Network,
    });
    expect([parsed.os, parsed.ram, parsed.gpu, parsed.publicIpAddress]).toEqual([null, null, null, null]);
    expect([parsed.internalId, parsed.events]).toEqual([undefined, undefined]);
  });

  it("machines.create: a team admin with email, password, firstName, lastName → a new team user, password kept nowhere", async () => {
    const id = await created(
      {
        teamId: SEEDED.team,
        email: "jon@acme.example",
        password: "secret123",
        firstName: "Jon",
        lastName: "Snow",
      },
      fx.emu.keys.teamAdmin,
    );
    const users = expectOk(
      await fx.call<{ id: string }[]>("users.list", { email: "jon@acme.example" }, fx.emu.keys.teamAdmin),
    );
    expect(users).toHaveLength(1);
    expect(
      (await fx.call<{ userId: string }>("machines.show", { machineId: id }, fx.emu.keys.teamAdmin)).res
        .userId,
    ).toBe(users[0].id);
    expect(JSON.stringify(await fx.emu.control.state())).not.toContain("secret123");
  });

  it.each([
    [
      "the doc example's Air on an Ubuntu template",
      { machineType: "Air" },
      400,
      "validation_failed",
      /Air cannot be created from an Ubuntu template/,
    ],
    [
      "assignPublicIp with dynamicPublicIp",
      { assignPublicIp: true, dynamicPublicIp: true },
      400,
      "validation_failed",
      /cannot be combined/,
    ],
    [
      "a region outside the list",
      { region: "Mars" },
      400,
      "validation_failed",
      /region must be one of: West Coast \(CA1\), East Coast \(NY2\), Europe \(AMS1\)/,
    ],
    ["an unknown templateId", { templateId: "t123abc" }, 404, "not_found", /templateId t123abc not found/],
    ["an unknown scriptId", { scriptId: "sc123abc" }, 404, "not_found", /scriptId sc123abc not found/],
  ] as const)(
    "machines.create: %s → refused, naming the rule",
    async (_what, extra, status, code, message) => {
      expect(
        expectHttpError(await fx.call("machines.create", { ...CREATE, ...extra }), status, code),
      ).toMatch(message);
    },
  );

  it("machines.create: scriptId of a script → attached (scripts.show lists the machine); the script runs at boot", async () => {
    const script = await fx.call<{ id: string }>("scripts.create", {
      scriptName: "On Boot",
      scriptText: "#!/bin/bash\necho booted\n",
    });
    const scriptId = expectOk(script).id;
    const id = await created({ scriptId, machineName: "Scripted" });
    const bootedAt = new Date(fx.emu.now() + 60_000).toISOString();
    const machines = async () =>
      ScriptSchema.parse(expectOk(await fx.call("scripts.show", { scriptId }))).machines;
    expect((await shown(id)).scriptId).toBe(scriptId);
    expect(await machines()).toEqual([{ machineId: id, machineName: "Scripted", dtLastRun: null }]);
    fx.emu.advance(60_000);
    expect(await machines()).toEqual([{ machineId: id, machineName: "Scripted", dtLastRun: bootedAt }]);
    expect(await shown(id)).toMatchObject({ state: "ready", scriptId, dtLastRun: bootedAt });
  });

  it("machines.create: dynamicPublicIp alone → accepted; an address (198.18.0.0/15) while running, none when off, never reserved", async () => {
    const id = await created({ dynamicPublicIp: true });
    expect(await shown(id)).toMatchObject({
      state: "provisioning",
      dynamicPublicIp: true,
      publicIpAddress: null,
    });
    fx.emu.advance(60_000);
    const running = await shown(id);
    expect(running.state).toBe("ready");
    expect(running.publicIpAddress).toMatch(/^198\.1[89]\.\d{1,3}\.\d{1,3}$/);
    expect((await fx.emu.control.state()).reservedIps).not.toContain(running.publicIpAddress);
    expectOk(await fx.call("machines.stop", { machineId: id }));
    fx.emu.advance(15_000);
    expect(await shown(id)).toMatchObject({ state: "off", dynamicPublicIp: true, publicIpAddress: null });
    expectOk(await fx.call("machines.start", { machineId: id }));
    fx.emu.advance(30_000);
    expect((await shown(id)).publicIpAddress).toMatch(/^198\.1[89]\./);
  });

  it("machines.create: a team member → 403; a missing required parameter → the client's own error, nothing sent", async () => {
    const member = await fx.call(
      "machines.create",
      { ...CREATE, teamId: SEEDED.team },
      fx.emu.keys.teamMember,
    );
    expect(expectHttpError(member, 403, "forbidden")).toMatch(/only account administrators/);
    const before = (await fx.emu.control.state()).requestCounts;
    const { size: _size, ...noSize } = CREATE;
    expect((await fx.call("machines.create", noSize)).err?.message).toBe("Missing required parameter `size`");
    expect((await fx.emu.control.state()).requestCounts).toEqual(before);
  });

  it("machines.waitfor: provisioning → polls every 5 s of emulator time, returns the machine ready with events", async () => {
    const id = await created();
    const polls = () =>
      fx.emu.control.state().then((s) => s.requestCounts["GET /machines/getMachinePublic"] ?? 0);
    const before = await polls();
    const machine = await onEmulatorTime(fx.emu, () =>
      fx.call("machines.waitfor", { machineId: id, state: "ready" }),
    );
    expect(MachineSchema.parse(expectOk(machine))).toMatchObject({
      state: "ready",
      os: "Ubuntu 22.04 Desktop",
    });
    expect((machine.res as { events: { name: string; state: string }[] }).events).toEqual([
      expect.objectContaining({ name: "create", state: "done" }),
    ]);
    expect((await polls()) - before).toBe(13); // at 0, 5, …, 60 s
  });

  it("machines.waitfor: a headless machine and state serviceready → returns at serviceready; 'running' → the client's error", async () => {
    const id = await created({ templateId: SEEDED.headlessTemplate });
    const machine = await onEmulatorTime(fx.emu, () =>
      fx.call("machines.waitfor", { machineId: id, state: "serviceready" }),
    );
    expect(MachineSchema.parse(expectOk(machine)).state).toBe("serviceready");
    const wrong = await fx.call("machines.waitfor", { machineId: id, state: "running" });
    expect(wrong.err?.message).toBe("state must be either off, serviceready, or ready");
  });

  it("machines.waitfor: state off after a stop → polls while stopping, returns the machine off with the stop done", async () => {
    const id = await created();
    fx.emu.advance(60_000);
    expectOk(await fx.call("machines.stop", { machineId: id }));
    expect((await shown(id)).state).toBe("stopping");
    const polls = () =>
      fx.emu.control.state().then((s) => s.requestCounts["GET /machines/getMachinePublic"] ?? 0);
    const before = await polls();
    const machine = await onEmulatorTime(fx.emu, () =>
      fx.call("machines.waitfor", { machineId: id, state: "off" }),
    );
    const off = MachineSchema.parse(expectOk(machine));
    expect(off).toMatchObject({ id, state: "off" });
    expect(off.events?.map((e) => [e.name, e.state])).toEqual([
      ["stop", "done"],
      ["create", "done"],
    ]);
    expect((await polls()) - before).toBe(4); // at 0, 5, 10, 15 s
  });

  it("machines.show: → the machine with events; an unknown id → 404 naming machineId", async () => {
    const machine = await shown(await created());
    expect(machine.events?.map((e) => [e.name, e.state])).toEqual([["create", "pending"]]);
    expect(expectHttpError(await fx.call("machines.show", { machineId: "ps123abc" }), 404, "not_found")).toBe(
      "machineId ps123abc not found",
    );
  });

  it("machines.list: no filter → all, with internalId; equality filters as strings; limit and skip page", async () => {
    const all = MachineListSchema.parse(expectOk(await fx.call("machines.list")));
    expect(all.length).toBeGreaterThan(3);
    expect(all.every((m) => typeof m.internalId === "number" && m.events === undefined)).toBe(true);
    const list = async (filter: Record<string, unknown>) =>
      MachineListSchema.parse(expectOk(await fx.call("machines.list", filter)));
    expect((await list({ machineId: all[1].id })).map((m) => m.id)).toEqual([all[1].id]);
    expect(await list({ state: "provisioning" })).toEqual(all.filter((m) => m.state === "provisioning"));
    expect(await list({ performAutoSnapshot: false, autoSnapshotFrequency: null })).toEqual(all);
    expect(await list({ cpus: 2, updatesPending: true })).toEqual([]);
    expect((await list({ limit: 2, skip: 2 })).map((m) => m.id)).toEqual(all.slice(2, 4).map((m) => m.id));
  });

  it("machines.list: filter `id` (the doc says machineId, not id) → 400 naming the allowed filters", async () => {
    const message = expectHttpError(await fx.call("machines.list", { id: "ps1" }), 400, "validation_failed");
    expect(message).toMatch(/^unknown query parameter id; allowed: machineId, name/);
  });

  it("machines.stop, start, restart: → 204 (the client gets {}); stopping → off → starting → ready → restarting", async () => {
    const id = await created();
    fx.emu.advance(60_000);
    const op = async (name: string) => expectOk(await fx.call(`machines.${name}`, { machineId: id }));
    expect(await op("stop")).toEqual({});
    expect((await shown(id)).state).toBe("stopping");
    fx.emu.advance(15_000);
    expect((await shown(id)).state).toBe("off");
    expect(expectHttpError(await fx.call("machines.restart", { machineId: id }), 409, "conflict")).toMatch(
      /cannot restart machine .* while it is off; start it instead/,
    );
    expect(await op("start")).toEqual({});
    fx.emu.advance(30_000);
    expect((await shown(id)).state).toBe("ready");
    expect(await op("restart")).toEqual({});
    expect((await shown(id)).events?.map((e) => e.name)).toEqual(["restart", "start", "stop", "create"]);
  });

  it("machines.start: the team admin on a member's machine → 403 naming the owner", async () => {
    const id = await created(
      { teamId: SEEDED.team, userId: SEEDED.member, startOnCreate: false },
      fx.emu.keys.teamAdmin,
    );
    fx.emu.advance(60_000);
    const answer = await fx.call("machines.start", { machineId: id }, fx.emu.keys.teamAdmin);
    expect(expectHttpError(answer, 403, "forbidden")).toMatch(/only the machine's owner may start/);
  });

  it("machines.update: every documented option → 204, shown after; autoSnapshotFrequency 'month' → 400", async () => {
    const id = await created();
    const changes = {
      machineName: "New Machine Name",
      shutdownTimeoutInHours: 24,
      shutdownTimeoutForces: true,
      performAutoSnapshot: true,
      autoSnapshotFrequency: "week",
      autoSnapshotSaveCount: 4,
      dynamicPublicIp: true,
    };
    expect(expectOk(await fx.call("machines.update", { machineId: id, ...changes }))).toEqual({});
    const { machineName, ...same } = changes;
    expect(await shown(id)).toMatchObject({ name: machineName, ...same });
    const bad = await fx.call("machines.update", { machineId: id, autoSnapshotFrequency: "month" });
    expect(expectHttpError(bad, 400, "validation_failed")).toMatch(
      /autoSnapshotFrequency must be one of: hour, day, week/,
    );
  });

  it("machines.setAccessForUser: enableAccess true, then false → the grant recorded, then removed; an unknown user → 404", async () => {
    const id = await created({ teamId: SEEDED.team, userId: SEEDED.admin }, fx.emu.keys.teamAdmin);
    const set = (enableAccess: boolean, userId = SEEDED.member) =>
      fx.call("machines.setAccessForUser", { machineId: id, userId, enableAccess }, fx.emu.keys.teamAdmin);
    const grants = async () => (await fx.emu.control.state()).accessGrants.filter((g) => g.machineId === id);
    expect(expectOk(await set(true))).toEqual({});
    expect(await grants()).toEqual([{ machineId: id, userId: SEEDED.member }]);
    expectOk(await set(false));
    expect(await grants()).toEqual([]);
    expect(expectHttpError(await set(true, SEEDED.individualUser), 404, "not_found")).toBe(
      "userId ujane001 not found",
    );
  });

  it("machines.utilization: machineId and billingMonth → seconds run and stored that month; a bad month → 400", async () => {
    const id = await created();
    fx.emu.advance(60_000 + 3_600_000);
    const billingMonth = new Date(fx.emu.now()).toISOString().slice(0, 7);
    const usage = UtilizationSchema.parse(
      expectOk(await fx.call("machines.utilization", { machineId: id, billingMonth })),
    );
    expect(usage.utilization).toMatchObject({
      machineId: id,
      secondsUsed: 3600,
      hourlyRate: "0.036",
      billingMonth,
    });
    expect(usage.storageUtilization).toMatchObject({ secondsUsed: 3660, billingMonth });
    const bad = await fx.call("machines.utilization", { machineId: id, billingMonth: "2026-1" });
    expect(expectHttpError(bad, 400, "validation_failed")).toMatch(/billingMonth: must be YYYY-MM/);
  });

  it("machines.availability: a dedicated GPU type → {available}; a CPU type → 400 naming the GPU types", async () => {
    const ask = (region: string, machineType: string) =>
      fx.call("machines.availability", { region, machineType });
    expect(expectOk(await ask("East Coast (NY2)", "V100"))).toEqual({ available: true });
    expect(expectOk(await ask("Europe (AMS1)", "GPU+"))).toEqual({ available: false });
    expect(expectHttpError(await ask("East Coast (NY2)", "C4"), 400, "validation_failed")).toMatch(
      /machineType must be one of: GPU\+, P4000, P5000, P6000, V100/,
    );
  });

  it("machines.destroy: releasePublicIp true → 204, gone (404) and its IP released; without it → the IP kept", async () => {
    const released = await created({ assignPublicIp: true });
    const kept = await created({ assignPublicIp: true });
    fx.emu.advance(60_000);
    const ipOf = async (id: string) => (await shown(id)).publicIpAddress;
    const [ipReleased, ipKept] = [await ipOf(released), await ipOf(kept)];
    expect(
      expectOk(await fx.call("machines.destroy", { machineId: released, releasePublicIp: true })),
    ).toEqual({});
    expectOk(await fx.call("machines.destroy", { machineId: kept }));
    expectHttpError(await fx.call("machines.show", { machineId: released }), 404, "not_found");
    const reserved = (await fx.emu.control.state()).reservedIps as string[];
    expect([reserved.includes(ipReleased!), reserved.includes(ipKept!)]).toEqual([false, true]);
  });

  it("coverage: every machines.* method of paperspace-node → called above", () => {
    const machines = fx.methods().filter((m) => m.startsWith("machines."));
    expect(machines.filter((m) => !fx.called.has(m))).toEqual([]);
    expect(machines).toHaveLength(12);
  });
});
