/**
 * What happens at boot and stop: startup scripts (every boot, runOnce, disabled, destroyed),
 * dynamic and static public IPs, utilization per billing month, capacity failures, time scale.
 */
import { MachineSchema, ScriptSchema, UtilizationSchema, type Machine } from "../../../src/contract/schemas";
import { LIFECYCLE } from "../../../src/emulator";
import { startTestEmulator } from "../../kit/emulator";
import { Api, createBody, SEEDED, useFixture } from "./api";

const PROVISION = LIFECYCLE.provisioning!.durationMs;
const START = LIFECYCLE.starting!.durationMs;
const STOP = LIFECYCLE.stopping!.durationMs;
const RESTART = LIFECYCLE.restarting!.durationMs;

const fx = useFixture({}, { resetEach: true });

const api = () => fx.individual;
async function create(overrides: Record<string, unknown> = {}): Promise<Machine> {
  const res = await api().post("/machines/createSingleMachinePublic", createBody(overrides));
  expect(res.status).toBe(200);
  return MachineSchema.parse(res.body);
}
const show = async (id: string) =>
  MachineSchema.parse((await api().get("/machines/getMachinePublic", { machineId: id })).body);
const op = (id: string, name: string) => api().post(`/machines/${id}/${name}`);
const nowIso = () => new Date(fx.emu.now()).toISOString();
async function script(body: Record<string, unknown>): Promise<string> {
  const res = await api().post<{ id: string }>("/scripts/createScript", { scriptText: "echo boot", ...body });
  expect(res.status).toBe(200);
  return res.body.id;
}
const showScript = async (id: string) =>
  ScriptSchema.parse((await api().get("/scripts/getScript", { scriptId: id })).body);

async function stopStart(id: string): Promise<void> {
  await op(id, "stop");
  fx.emu.advance(STOP);
  await op(id, "start");
  fx.emu.advance(START);
}

describe("startup scripts", () => {
  it("script: enabled, every boot → runs at each boot (machine and script dtLastRun)", async () => {
    const sc = await script({ scriptName: "every" });
    const m = await create({ scriptId: sc });
    expect(m.scriptId).toBe(sc);
    fx.emu.advance(PROVISION);
    const firstBoot = nowIso();
    expect((await show(m.id)).dtLastRun).toBe(firstBoot);
    expect((await showScript(sc)).machines).toEqual([
      { machineId: m.id, machineName: m.name, dtLastRun: firstBoot },
    ]);
    await stopStart(m.id);
    expect((await show(m.id)).dtLastRun).toBe(nowIso());
    await op(m.id, "restart");
    fx.emu.advance(RESTART);
    expect((await show(m.id)).dtLastRun).toBe(nowIso());
  });

  it("script: runOnce → runs at the first boot only", async () => {
    const sc = await script({ scriptName: "once", runOnce: true });
    const m = await create({ scriptId: sc, startOnCreate: false });
    fx.emu.advance(PROVISION);
    expect((await show(m.id)).dtLastRun).toBeNull();
    await op(m.id, "start");
    fx.emu.advance(START);
    const firstBoot = nowIso();
    expect((await show(m.id)).dtLastRun).toBe(firstBoot);
    await stopStart(m.id);
    expect((await show(m.id)).dtLastRun).toBe(firstBoot);
    expect((await showScript(sc)).machines?.[0].dtLastRun).toBe(firstBoot);
  });

  it("script: disabled → never runs", async () => {
    const sc = await script({ scriptName: "off", isEnabled: false });
    const m = await create({ scriptId: sc });
    fx.emu.advance(PROVISION);
    expect((await show(m.id)).dtLastRun).toBeNull();
  });

  it("createScript with machineId → attached; runs at the next boot", async () => {
    const m = await create();
    fx.emu.advance(PROVISION);
    const sc = await script({ scriptName: "later", machineId: m.id });
    expect((await show(m.id)).scriptId).toBe(sc);
    expect((await show(m.id)).dtLastRun).toBeNull();
    await op(m.id, "restart");
    fx.emu.advance(RESTART);
    expect((await show(m.id)).dtLastRun).toBe(nowIso());
  });

  it("script destroy → 204, machines detached (scriptId null), gone from lists", async () => {
    const sc = await script({ scriptName: "gone" });
    const m = await create({ scriptId: sc });
    expect((await api().post(`/scripts/${sc}/destroy`)).status).toBe(204);
    expect((await show(m.id)).scriptId).toBeNull();
    expect((await api().get("/scripts/getScript", { scriptId: sc })).status).toBe(404);
    expect((await api().get<unknown[]>("/scripts/getScripts")).body).toEqual([]);
  });

  it("script destroy after a boot nobody read → the boot ran it (dtLastRun at the boot), as when it was read", async () => {
    const sc = await script({ scriptName: "booted" });
    const m = await create({ scriptId: sc });
    fx.emu.advance(PROVISION);
    const boot = nowIso();
    fx.emu.advance(60_000);
    expect((await api().post(`/scripts/${sc}/destroy`)).status).toBe(204);
    expect(await show(m.id)).toMatchObject({ scriptId: null, dtLastRun: boot });
  });

  it("getScriptText → the text as a JSON string; the record never carries it", async () => {
    const sc = await script({ scriptName: "text", scriptText: '#!/bin/bash\necho "hi"' });
    const res = await api().get("/scripts/getScriptText", { scriptId: sc });
    expect(res.text).toBe(JSON.stringify('#!/bin/bash\necho "hi"'));
    expect(JSON.stringify((await api().get("/scripts/getScripts")).body)).not.toContain("echo");
  });
});

describe("public IPs", () => {
  it("dynamicPublicIp → an IP once ready, none after stop, a fresh one at the next start", async () => {
    const m = await create({ dynamicPublicIp: true });
    expect(m.publicIpAddress).toBeNull();
    fx.emu.advance(PROVISION);
    const first = (await show(m.id)).publicIpAddress;
    expect(first).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    await op(m.id, "stop");
    expect((await show(m.id)).publicIpAddress).toBe(first);
    fx.emu.advance(STOP);
    expect((await show(m.id)).publicIpAddress).toBeNull();
    await op(m.id, "start");
    fx.emu.advance(START);
    const second = (await show(m.id)).publicIpAddress;
    expect(second).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(second).not.toBe(first);
  });

  it("assignPublicIp → a static IP kept across stops; destroy keeps it reserved unless releasePublicIp", async () => {
    const a = await create({ assignPublicIp: true });
    const b = await create({ assignPublicIp: true });
    fx.emu.advance(PROVISION);
    const ipA = (await show(a.id)).publicIpAddress;
    const ipB = (await show(b.id)).publicIpAddress;
    expect(ipA).toMatch(/^100\./);
    expect(ipB).not.toBe(ipA);
    await op(a.id, "stop");
    fx.emu.advance(STOP);
    expect((await show(a.id)).publicIpAddress).toBe(ipA);
    await api().post(`/machines/${a.id}/destroyMachine`);
    await api().post(`/machines/${b.id}/destroyMachine`, undefined, { query: { releasePublicIp: "true" } });
    expect((await fx.emu.control.state()).reservedIps).toEqual([ipA]);
  });

  it("destroyMachine: releasePublicIp in the body → released", async () => {
    const a = await create({ assignPublicIp: true });
    expect((await api().post(`/machines/${a.id}/destroyMachine`, { releasePublicIp: true })).status).toBe(
      204,
    );
    expect((await fx.emu.control.state()).reservedIps).toEqual([]);
  });
});

describe("utilization", () => {
  it("utilization: seconds accrue while up, stop while off; rates per type and size", async () => {
    const m = await create({ machineType: "P5000", size: 100 });
    fx.emu.advance(PROVISION);
    fx.emu.advance(3600_000);
    await op(m.id, "stop");
    fx.emu.advance(STOP);
    fx.emu.advance(7200_000);
    const res = UtilizationSchema.parse(
      (await api().get("/machines/getUtilization", { machineId: m.id, billingMonth: "2026-01" })).body,
    );
    expect(res).toEqual({
      machineId: m.id,
      utilization: {
        machineId: m.id,
        secondsUsed: 3600 + STOP / 1000,
        hourlyRate: "0.78",
        billingMonth: "2026-01",
      },
      storageUtilization: {
        machineId: m.id,
        secondsUsed: (PROVISION + 3600_000 + STOP + 7200_000) / 1000,
        monthlyRate: "7.00",
        billingMonth: "2026-01",
      },
    });
  });

  it("utilization: a run across a month boundary → split between the two billing months", async () => {
    // The manual clock starts 2026-01-15T09:00:00Z; the machine is up from 09:01 on.
    const m = await create();
    fx.emu.advance(PROVISION);
    const toFeb = Date.parse("2026-02-01T00:00:00.000Z") - fx.emu.now();
    fx.emu.advance(toFeb + 3600_000);
    const month = async (billingMonth: string) =>
      UtilizationSchema.parse(
        (await api().get("/machines/getUtilization", { machineId: m.id, billingMonth })).body,
      );
    expect((await month("2026-01")).utilization.secondsUsed).toBe(toFeb / 1000);
    expect((await month("2026-02")).utilization.secondsUsed).toBe(3600);
    expect((await month("2025-12")).utilization.secondsUsed).toBe(0);
  });
});

describe("capacity", () => {
  /** Machine `id` after a start that found no capacity: off, its latest event `name`'s error naming both. */
  async function expectNoCapacity(id: string, name: "create" | "start", machineType: string, region: string) {
    const failed = await show(id);
    expect(failed.state).toBe("off");
    expect(failed.events?.[0]).toMatchObject({
      name,
      state: "error",
      errorMsg: `insufficient capacity for ${machineType} in ${region}`,
    });
    return failed;
  }

  it("capacity: failNextStarts on create → off with an error event naming type and region; next start works", async () => {
    await fx.emu.control.capacity({ region: "Europe (AMS1)", machineType: "C5", failNextStarts: 1 });
    const m = await create({ region: "Europe (AMS1)", machineType: "C5" });
    fx.emu.advance(PROVISION);
    const failed = await expectNoCapacity(m.id, "create", "C5", "Europe (AMS1)");
    expect(failed.dtLastRun).toBeNull();
    await op(m.id, "start");
    fx.emu.advance(START);
    expect((await show(m.id)).state).toBe("ready");
  });

  it("capacity: failNextStarts on start → starting, then off with an error start event", async () => {
    const m = await create({ startOnCreate: false });
    fx.emu.advance(PROVISION);
    await fx.emu.control.capacity({ region: "East Coast (NY2)", machineType: "C4", failNextStarts: 1 });
    await op(m.id, "start");
    expect((await show(m.id)).state).toBe("starting");
    fx.emu.advance(START);
    await expectNoCapacity(m.id, "start", "C4", "East Coast (NY2)");
  });

  it("capacity control: available false → getAvailability reports it", async () => {
    await fx.emu.control.capacity({ region: "East Coast (NY2)", machineType: "V100", available: false });
    expect(
      (await api().get("/machines/getAvailability", { region: "East Coast (NY2)", machineType: "V100" }))
        .body,
    ).toEqual({
      available: false,
    });
  });
});

describe("time scale", () => {
  it("timeScale 0.01: provisioning of 60 s → done after 600 ms of emulator time", async () => {
    const emu = await startTestEmulator({ timeScale: 0.01 });
    try {
      const a = new Api(emu.url, emu.keys.individual);
      const m = (await a.post<{ id: string }>("/machines/createSingleMachinePublic", createBody())).body;
      const stateNow = async () =>
        (await a.get<{ state: string }>("/machines/getMachinePublic", { machineId: m.id })).body.state;
      emu.advance(599);
      expect(await stateNow()).toBe("provisioning");
      emu.advance(1);
      expect(await stateNow()).toBe("ready");
    } finally {
      await emu.close();
    }
  });

  it("team machine for a headless template → LinuxHeadless agent", async () => {
    const m = await fx.admin.post<Machine>(
      "/machines/createSingleMachinePublic",
      createBody({ teamId: SEEDED.team, userId: SEEDED.member, templateId: SEEDED.teamTemplate }),
    );
    expect(m.body.agentType).toBe("LinuxHeadless");
  });
});
