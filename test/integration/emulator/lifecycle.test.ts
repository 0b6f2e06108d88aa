/**
 * The lifecycle table on the wire, driven by the manual clock: every transition row, the no-ops,
 * the 409s, events, serviceready for headless agents, and destroy.
 */
import { MachineSchema, type Machine } from "../../../src/contract/schemas";
import { LIFECYCLE } from "../../../src/emulator";
import { createBody, SEEDED, useFixture, type ErrorBody } from "./api";

const PROVISION = LIFECYCLE.provisioning!.durationMs;
const START = LIFECYCLE.starting!.durationMs;
const STOP = LIFECYCLE.stopping!.durationMs;
const RESTART = LIFECYCLE.restarting!.durationMs;
const SERVICE = LIFECYCLE.serviceready!.durationMs;

const fx = useFixture({}, { resetEach: true });

async function create(overrides: Record<string, unknown> = {}): Promise<Machine> {
  const res = await fx.individual.post<Machine>("/machines/createSingleMachinePublic", createBody(overrides));
  expect(res.status).toBe(200);
  return MachineSchema.parse(res.body);
}

async function show(id: string): Promise<Machine> {
  const res = await fx.individual.get<Machine>("/machines/getMachinePublic", { machineId: id });
  expect(res.status).toBe(200);
  return MachineSchema.parse(res.body);
}

const op = (id: string, name: "start" | "stop" | "restart") => fx.individual.post(`/machines/${id}/${name}`);

/** A desktop machine that has reached ready. */
async function readyMachine(overrides: Record<string, unknown> = {}): Promise<Machine> {
  const m = await create(overrides);
  fx.emu.advance(PROVISION);
  expect((await show(m.id)).state).toBe("ready");
  return m;
}

/** A desktop machine that is off after provisioning. */
async function offMachine(): Promise<Machine> {
  const m = await create({ startOnCreate: false });
  fx.emu.advance(PROVISION);
  expect((await show(m.id)).state).toBe("off");
  return m;
}

describe("create", () => {
  it("create: valid request → 200, provisioning, hardware and address fields null", async () => {
    const m = await create({ assignPublicIp: true });
    expect(m.state).toBe("provisioning");
    for (const field of [
      "os",
      "ram",
      "gpu",
      "storageTotal",
      "storageUsed",
      "privateIpAddress",
      "publicIpAddress",
    ]) {
      expect(m[field as keyof Machine]).toBeNull();
    }
    expect(m.id).toMatch(/^ps[0-9a-z]{7}$/);
    expect(m.internalId).toBeUndefined();
    expect(m.events).toBeUndefined();
  });

  it("provisioning: until its duration has passed → still provisioning, then ready with hardware", async () => {
    const m = await create();
    fx.emu.advance(PROVISION - 1);
    expect((await show(m.id)).state).toBe("provisioning");
    fx.emu.advance(1);
    const ready = await show(m.id);
    expect(ready.state).toBe("ready");
    expect(ready.os).toBe("Ubuntu 22.04 Desktop");
    expect(ready.ram).toMatch(/^\d+$/);
    expect(ready.storageTotal).toBe(String(50 * 1024 ** 3));
    expect(ready.privateIpAddress).toMatch(/^10\.64\.2\.\d+$/);
    expect(ready.events?.map((e) => [e.name, e.state])).toEqual([["create", "done"]]);
  });

  it("create: startOnCreate false → off after provisioning, create event done", async () => {
    const m = await offMachine();
    const shown = await show(m.id);
    expect(shown.events?.[0]).toMatchObject({ name: "create", state: "done", errorMsg: "" });
  });

  it("create: headless template → serviceready, then ready; the create event finishes at ready", async () => {
    const m = await create({ templateId: SEEDED.headlessTemplate });
    fx.emu.advance(PROVISION);
    const sr = await show(m.id);
    expect(sr.state).toBe("serviceready");
    expect(sr.events?.[0]).toMatchObject({ name: "create", state: "pending", dtFinished: null });
    fx.emu.advance(SERVICE);
    const ready = await show(m.id);
    expect(ready.state).toBe("ready");
    expect(ready.events?.[0]).toMatchObject({ name: "create", state: "done" });
    expect(ready.events?.[0].dtFinished).toBe(
      new Date(Date.parse(ready.dtCreated) + PROVISION + SERVICE).toISOString(),
    );
  });

  it("create: windows template → ready directly with agentType WindowsDesktop", async () => {
    const m = await create({ templateId: SEEDED.windowsTemplate, machineType: "P4000" });
    expect(m.agentType).toBe("WindowsDesktop");
    fx.emu.advance(PROVISION);
    expect((await show(m.id)).state).toBe("ready");
  });
});

describe("start, stop, restart", () => {
  it("start: off → starting, then ready after the start duration; one start event", async () => {
    const m = await offMachine();
    expect((await op(m.id, "start")).status).toBe(204);
    const starting = await show(m.id);
    expect(starting.state).toBe("starting");
    expect(starting.events?.[0]).toMatchObject({ name: "start", state: "pending", dtFinished: null });
    fx.emu.advance(START);
    const ready = await show(m.id);
    expect(ready.state).toBe("ready");
    expect(ready.events?.map((e) => `${e.name}:${e.state}`)).toEqual(["start:done", "create:done"]);
  });

  it("start: headless off → starting → serviceready → ready", async () => {
    const m = await create({ templateId: SEEDED.headlessTemplate, startOnCreate: false });
    fx.emu.advance(PROVISION);
    await op(m.id, "start");
    fx.emu.advance(START);
    expect((await show(m.id)).state).toBe("serviceready");
    fx.emu.advance(SERVICE);
    expect((await show(m.id)).state).toBe("ready");
  });

  it.each(["ready", "starting", "serviceready"])(
    "start: machine %s → 204 no-op, no new event",
    async (from) => {
      const m =
        from === "serviceready" ? await create({ templateId: SEEDED.headlessTemplate }) : await offMachine();
      if (from === "serviceready") fx.emu.advance(PROVISION);
      if (from === "starting") await op(m.id, "start");
      if (from === "ready") {
        await op(m.id, "start");
        fx.emu.advance(START);
      }
      const before = await show(m.id);
      expect(before.state).toBe(from);
      expect((await op(m.id, "start")).status).toBe(204);
      const after = await show(m.id);
      expect(after.state).toBe(from);
      expect(after.events).toEqual(before.events);
    },
  );

  it.each(["ready", "serviceready"])("stop: machine %s → stopping, then off", async (from) => {
    const m = await create(from === "serviceready" ? { templateId: SEEDED.headlessTemplate } : {});
    fx.emu.advance(PROVISION);
    expect((await show(m.id)).state).toBe(from);
    expect((await op(m.id, "stop")).status).toBe(204);
    expect((await show(m.id)).state).toBe("stopping");
    fx.emu.advance(STOP);
    const off = await show(m.id);
    expect(off.state).toBe("off");
    expect(off.events?.[0]).toMatchObject({ name: "stop", state: "done" });
    // A superseded pending create event is finished, never left pending.
    expect(off.events?.every((e) => e.state === "done")).toBe(true);
  });

  it.each(["off", "stopping"])("stop: machine %s → 204 no-op", async (from) => {
    const m = await readyMachine();
    await op(m.id, "stop");
    if (from === "off") fx.emu.advance(STOP);
    const before = await show(m.id);
    expect((await op(m.id, "stop")).status).toBe(204);
    expect(await show(m.id)).toEqual(before);
  });

  it.each(["ready", "serviceready"])("restart: machine %s → restarting, then back up", async (from) => {
    const m = await create(from === "serviceready" ? { templateId: SEEDED.headlessTemplate } : {});
    fx.emu.advance(PROVISION);
    expect((await op(m.id, "restart")).status).toBe(204);
    expect((await show(m.id)).state).toBe("restarting");
    fx.emu.advance(RESTART);
    expect((await show(m.id)).state).toBe(from);
  });

  it("restart: already restarting → a further restart: timer starts again, new event", async () => {
    const m = await readyMachine();
    await op(m.id, "restart");
    fx.emu.advance(RESTART - 1000);
    expect((await op(m.id, "restart")).status).toBe(204);
    fx.emu.advance(1000);
    expect((await show(m.id)).state).toBe("restarting");
    fx.emu.advance(RESTART - 1000);
    const up = await show(m.id);
    expect(up.state).toBe("ready");
    expect(up.events?.map((e) => `${e.name}:${e.state}`)).toEqual([
      "restart:done",
      "restart:done",
      "create:done",
    ]);
    expect(new Set(up.events?.map((e) => e.handle)).size).toBe(3);
  });

  const impossible: [string, "start" | "stop" | "restart"][] = [
    ["provisioning", "start"],
    ["provisioning", "stop"],
    ["provisioning", "restart"],
    ["stopping", "start"],
    ["stopping", "restart"],
    ["starting", "stop"],
    ["starting", "restart"],
    ["restarting", "start"],
    ["restarting", "stop"],
    ["off", "restart"],
  ];
  it.each(impossible)("%s: %s → 409 conflict naming the state, nothing changes", async (from, operation) => {
    const m =
      from === "provisioning" ? await create() : from === "off" ? await offMachine() : await readyMachine();
    if (from === "stopping") await op(m.id, "stop");
    if (from === "restarting") await op(m.id, "restart");
    if (from === "starting") {
      await op(m.id, "stop");
      fx.emu.advance(STOP);
      await op(m.id, "start");
    }
    const before = await show(m.id);
    expect(before.state).toBe(from);
    const res = await op(m.id, operation);
    expect(res.status).toBe(409);
    expect((res.body as ErrorBody).error).toMatchObject({ status: 409, code: "conflict" });
    expect((res.body as ErrorBody).error.message).toContain(`while it is ${from}`);
    expect(await show(m.id)).toEqual(before);
  });
});

describe("destroy", () => {
  it.each(["provisioning", "ready", "off", "stopping"])(
    "destroy: machine %s → 204, then 404 and gone from lists",
    async (from) => {
      const m =
        from === "off" ? await offMachine() : from === "provisioning" ? await create() : await readyMachine();
      if (from === "stopping") await op(m.id, "stop");
      expect((await fx.individual.post(`/machines/${m.id}/destroyMachine`)).status).toBe(204);
      expect((await fx.individual.get("/machines/getMachinePublic", { machineId: m.id })).status).toBe(404);
      expect((await op(m.id, "start")).status).toBe(404);
      const list = await fx.individual.get<Machine[]>("/machines/getMachines");
      expect(list.body.map((x) => x.id)).not.toContain(m.id);
      const dump = await fx.emu.control.state();
      const record = dump.machines.find((x) => x.id === m.id);
      expect(record?.dtDestroyed).toBe(dump.now);
      fx.emu.advance(10 * 60_000);
      const later = await fx.individual.get<Machine[]>("/machines/getMachines");
      expect(later.body.map((x) => x.id)).not.toContain(m.id);
    },
  );
});

describe("events", () => {
  it("events: one per operation, newest first, unique handles, pending then done", async () => {
    const m = await readyMachine();
    await op(m.id, "stop");
    fx.emu.advance(STOP);
    await op(m.id, "start");
    const mid = await show(m.id);
    expect(mid.events?.map((e) => `${e.name}:${e.state}`)).toEqual([
      "start:pending",
      "stop:done",
      "create:done",
    ]);
    expect(mid.events?.[0].dtFinished).toBeNull();
    fx.emu.advance(START);
    await op(m.id, "restart");
    fx.emu.advance(RESTART);
    const done = await show(m.id);
    const events = done.events ?? [];
    expect(events.map((e) => e.name)).toEqual(["restart", "start", "stop", "create"]);
    expect(new Set(events.map((e) => e.handle)).size).toBe(events.length);
    const created = events.map((e) => Date.parse(e.dtCreated));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    for (const e of events) expect(e.dtFinished).not.toBeNull();
  });
});
