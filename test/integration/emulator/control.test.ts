/**
 * Control endpoints: the state dump, reset, the manual clock, capacity. No API key needed.
 */
import { DELEGATION_LIFETIME_MS } from "../../../src/contract/constants";
import { ControlError } from "../../../src/emulator";
import { startTestEmulator } from "../../kit/emulator";
import { createBody, SEEDED, useFixture, Api } from "./api";

const fx = useFixture({}, { resetEach: true });

describe("GET /_emulator/state", () => {
  it("state: after activity → every resource, destroyed machines with dtDestroyed, grants, delegations, counts, now", async () => {
    const a = (
      await fx.admin.post<{ id: string }>(
        "/machines/createSingleMachinePublic",
        createBody({ teamId: SEEDED.team, userId: SEEDED.admin }),
      )
    ).body;
    const b = (await fx.individual.post<{ id: string }>("/machines/createSingleMachinePublic", createBody()))
      .body;
    await fx.admin.post(`/machines/${a.id}/setMachineAccess`, { userId: SEEDED.member, enableAccess: true });
    const d = (
      await fx.admin.post<{ id: number }>("/resourceDelegations/create", { machine: { ids: [a.id] } })
    ).body;
    await fx.individual.post("/scripts/createScript", { scriptName: "s", scriptText: "x" });
    await fx.emu.control.advance(60_000);
    await fx.individual.post(`/machines/${b.id}/destroyMachine`);
    await fx.individual.post(`/machines/${b.id}/start`);
    const dump = await fx.emu.control.state();
    expect(dump.now).toBe("2026-01-15T09:01:00.000Z");
    expect(dump.machines.map((m) => [m.id, m.dtDestroyed])).toEqual([
      [a.id, null],
      [b.id, "2026-01-15T09:01:00.000Z"],
    ]);
    expect(dump.machines[0]).toMatchObject({
      state: "ready",
      internalId: 1,
      events: [expect.objectContaining({ name: "create" })],
    });
    expect(dump.accessGrants).toEqual([{ machineId: a.id, userId: SEEDED.member }]);
    expect(dump.delegations).toEqual([
      expect.objectContaining({ id: d.id, expired: false, userId: SEEDED.admin }),
    ]);
    expect(dump.scripts).toHaveLength(1);
    expect(dump.users.length).toBe(3);
    expect(dump.requestCounts).toEqual({
      "POST /machines/createSingleMachinePublic": 2,
      "POST /machines/{machineId}/setMachineAccess": 1,
      "POST /resourceDelegations/create": 1,
      "POST /scripts/createScript": 1,
      "POST /machines/{machineId}/destroyMachine": 1,
      "POST /machines/{machineId}/start": 1,
    });
    for (const key of Object.values(fx.emu.keys)) expect(JSON.stringify(dump)).not.toContain(key);
    await fx.emu.control.advance(DELEGATION_LIFETIME_MS);
    expect((await fx.emu.control.state()).delegations[0]).toMatchObject({ expired: true });
  });
});

describe("POST /_emulator/reset", () => {
  it("reset: after changes → back to the seed, counts cleared, same ids again", async () => {
    const first = (
      await fx.individual.post<{ id: string }>("/machines/createSingleMachinePublic", createBody())
    ).body.id;
    await fx.emu.control.reset();
    const dump = await fx.emu.control.state();
    expect(dump.machines).toEqual([]);
    expect(dump.requestCounts).toEqual({});
    const again = (
      await fx.individual.post<{ id: string }>("/machines/createSingleMachinePublic", createBody())
    ).body.id;
    expect(again).toBe(first);
  });
});

describe("clock", () => {
  it("advance: manual clock → now moves; negative or missing ms → 400", async () => {
    const before = Date.parse((await fx.emu.control.state()).now);
    const res = await fx.emu.control.advance(1500);
    expect(Date.parse(res.now) - before).toBe(1500);
    expect(res.mode).toBe("manual");
    const api = new Api(fx.emu.url, null);
    expect((await api.post("/_emulator/clock/advance", { ms: -1 })).status).toBe(400);
    expect((await api.post("/_emulator/clock/advance", {})).status).toBe(400);
    expect((await fx.emu.control.clock()).mode).toBe("manual");
  });

  // Found by the fuzzer (npm run fuzz): a step of 1.5e308 ms took the clock past what a
  // timestamp can show, and from then on every answer that writes one was a 500.
  it("advance: a step past 9999-12-31T23:59:59.999Z → 400 naming ms and the largest step; the clock and the API go on", async () => {
    const api = new Api(fx.emu.url, null);
    const now = Date.parse((await fx.emu.control.clock()).now);
    const largest = Date.UTC(9999, 11, 31, 23, 59, 59, 999) - now;
    const refused = await api.post<{ error: { code: string; message: string } }>("/_emulator/clock/advance", {
      ms: 1.5e308,
    });
    expect([refused.status, refused.body.error.code]).toEqual([400, "validation_failed"]);
    expect(refused.body.error.message).toMatch(
      new RegExp(`^ms would move the clock past 9999-12-31T23:59:59.999Z.*at most ${largest}$`),
    );
    expect((await api.post("/_emulator/clock/advance", { ms: largest + 1 })).status).toBe(400);
    expect(Date.parse((await fx.emu.control.clock()).now)).toBe(now);
    expect(
      (await fx.individual.post("/scripts/createScript", { scriptName: "after", scriptText: "x" })).status,
    ).toBe(200);
    expect((await fx.emu.control.advance(largest)).now).toBe("9999-12-31T23:59:59.999Z");
    expect((await fx.emu.control.state()).now).toBe("9999-12-31T23:59:59.999Z");
  });

  // Found by the fuzzer (npm run fuzz -- --long): an unknown field with an empty name was
  // refused as "unknown field " — a message that named nothing.
  it("advance: an unknown field with an empty name → 400 naming it quoted; the clock unchanged", async () => {
    const api = new Api(fx.emu.url, null);
    const before = (await fx.emu.control.clock()).now;
    const refused = await api.post<{ error: { message: string } }>("/_emulator/clock/advance", {
      ms: 1,
      "": null,
    });
    expect([refused.status, refused.body.error.message]).toEqual([400, 'unknown field ""']);
    expect((await fx.emu.control.clock()).now).toBe(before);
  });

  it("advance: real clock → 409 conflict", async () => {
    const emu = await startTestEmulator({ clock: "real" });
    try {
      // The control client's error carries the status and the error body as the emulator sent them.
      const error = await emu.control.advance(10).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ControlError);
      const { status, body } = error as ControlError;
      expect([status, (JSON.parse(body) as { error: { code: string } }).error.code]).toEqual([
        409,
        "conflict",
      ]);
      expect(() => emu.advance(10)).toThrow(/--clock manual/);
    } finally {
      await emu.close();
    }
  });
});

describe("capacity", () => {
  it.each([
    [{ region: "Mars", machineType: "P5000" }, "region"],
    [{ region: "Europe (AMS1)", machineType: "P5000", failNextStarts: -1 }, "failNextStarts"],
  ])("capacity: %j → 400 naming the field", async (body, field) => {
    const res = await new Api(fx.emu.url, null).post<{ error: { message: string } }>(
      "/_emulator/capacity",
      body,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });

  it("capacity: new entry → listed in the state dump", async () => {
    const res = await new Api(fx.emu.url, null).post("/_emulator/capacity", {
      region: "Europe (AMS1)",
      machineType: "V100",
      available: true,
    });
    expect(res.body).toEqual({
      region: "Europe (AMS1)",
      machineType: "V100",
      available: true,
      failNextStarts: 0,
    });
    expect((await fx.emu.control.state()).capacity).toContainEqual(res.body);
  });
});

describe("programmatic API", () => {
  it.each([
    [{ port: -1 }, /port/],
    [{ timeScale: -1 }, /timeScale/],
    [{ faultRate: 2 }, /faultRate/],
    [{ seed: { keys: {} } }, /invalid seed: .*teams/],
  ])("startEmulator: %j → rejects naming the option", async (options, message) => {
    await expect(startTestEmulator(options)).rejects.toThrow(message);
  });
});
