/**
 * Fault injection: scripted rules (status, Retry-After, latency, holds until released, reset
 * before acting, dropped response after acting, times, route templates and exact paths) and
 * seeded random faults.
 */
import { startTestEmulator } from "../../kit/emulator";
import { Api, createBody, useFixture } from "./api";

const fx = useFixture({}, { resetEach: true });

/** The status, or "connection" when the request failed without an answer. */
async function outcome(call: Promise<{ status: number }>): Promise<number | "connection"> {
  try {
    return (await call).status;
  } catch {
    return "connection";
  }
}

const machineCount = async () => (await fx.emu.control.state()).machines.length;

/** Waits until `n` requests are held. */
async function heldCount(n: number): Promise<void> {
  while ((await fx.emu.control.held()).length < n) await new Promise((resolve) => setImmediate(resolve));
}

describe("scripted faults", () => {
  it("faults: route template rule with times 2 → two 503s without acting, then normal", async () => {
    const m = (await fx.individual.post<{ id: string }>("/machines/createSingleMachinePublic", createBody()))
      .body;
    fx.emu.advance(60_000);
    await fx.emu.control.addFaults([
      { method: "POST", route: "/machines/{machineId}/stop", status: 503, times: 2 },
    ]);
    for (let i = 0; i < 2; i++) {
      const res = await fx.individual.post<{ error: { code: string; status: number } }>(
        `/machines/${m.id}/stop`,
      );
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ status: 503, code: "service_unavailable" });
    }
    const shown = await fx.individual.get<{ state: string }>("/machines/getMachinePublic", {
      machineId: m.id,
    });
    expect(shown.body.state).toBe("ready");
    expect((await fx.individual.post(`/machines/${m.id}/stop`)).status).toBe(204);
    expect((await fx.emu.control.state()).requestCounts["POST /machines/{machineId}/stop"]).toBe(3);
  });

  it("faults: skip 2 → the first two matching requests answered normally, the third faulted, the fourth normal", async () => {
    await fx.emu.control.addFaults([{ route: "/users/getUsers", status: 503, skip: 2 }]);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fx.individual.get("/users/getUsers")).status);
    expect(statuses).toEqual([200, 200, 503, 200]);
    expect(await fx.emu.control.faults()).toEqual([]);
  });

  it("faults: exact path rule → only that path; another machine is unaffected", async () => {
    await fx.emu.control.addFaults([{ route: "/users/getUsers", status: 500 }]);
    expect((await fx.individual.get("/networks/getNetworks")).status).toBe(200);
    const res = await fx.individual.get<{ error: { code: string } }>("/users/getUsers");
    expect([res.status, res.body.error.code]).toEqual([500, "internal_error"]);
    expect((await fx.individual.get("/users/getUsers")).status).toBe(200);
  });

  it("faults: 429 with retryAfterSeconds → Retry-After header and code rate_limited", async () => {
    await fx.emu.control.addFaults([{ status: 429, retryAfterSeconds: 7 }]);
    const res = await fx.individual.get<{ error: { code: string } }>("/users/getUsers");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    // The default time scale is the service's: no header the service does not send.
    expect(res.headers.get("retry-after-ms")).toBeNull();
    expect(res.body.error.code).toBe("rate_limited");
  });

  it("faults: 429 with retryAfterSeconds on a time-scaled emulator → retry-after-ms scaled alike, Retry-After as given", async () => {
    const emu = await startTestEmulator({ timeScale: 0.002 });
    try {
      await emu.control.addFaults([{ status: 429, retryAfterSeconds: 1 }]);
      const res = await new Api(emu.url, emu.keys.individual).get("/users/getUsers");
      expect([res.status, res.headers.get("retry-after"), res.headers.get("retry-after-ms")]).toEqual([
        429,
        "1",
        "2",
      ]);
    } finally {
      await emu.close();
    }
  });

  it("faults: reset → connection error and nothing created", async () => {
    await fx.emu.control.addFaults([{ route: "/machines/createSingleMachinePublic", reset: true }]);
    expect(await outcome(fx.individual.post("/machines/createSingleMachinePublic", createBody()))).toBe(
      "connection",
    );
    expect(await machineCount()).toBe(0);
  });

  it("faults: dropResponse → connection error, but the machine was created", async () => {
    await fx.emu.control.addFaults([{ route: "/machines/createSingleMachinePublic", dropResponse: true }]);
    expect(await outcome(fx.individual.post("/machines/createSingleMachinePublic", createBody()))).toBe(
      "connection",
    );
    expect(await machineCount()).toBe(1);
  });

  it("faults: latencyMs → the answer waits, then is normal", async () => {
    await fx.emu.control.addFaults([{ latencyMs: 80 }]);
    const started = Date.now();
    expect((await fx.individual.get("/users/getUsers")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
  });

  it("faults: latencyMs follows the time scale → an hour of latency at 0.00001 holds a create 36 ms, then it acts", async () => {
    const scaled = await startTestEmulator({ clock: "real", timeScale: 0.00001 });
    try {
      const scaledApi = new Api(scaled.url, scaled.keys.individual);
      await scaled.control.addFaults([
        { route: "/machines/createSingleMachinePublic", latencyMs: 3_600_000 },
      ]);
      const created = await scaledApi.post("/machines/createSingleMachinePublic", createBody());
      expect(created.status).toBe(200);
      expect((await scaled.control.state()).machines).toHaveLength(1);
    } finally {
      await scaled.close();
    }
  });

  it("faults: the emulator closes while a latency holds a create → the held request's timer ends with it", async () => {
    const held = await startTestEmulator();
    // Timers that keep this process alive: a held request's must not outlive its emulator
    // (it kept jest's worker alive until jest force-exited it).
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    await held.control.addFaults([{ route: "/machines/createSingleMachinePublic", latencyMs: 3_600_000 }]);
    const answer = outcome(
      new Api(held.url, held.keys.individual).post("/machines/createSingleMachinePublic", createBody()),
    );
    const creates = async () =>
      (await held.control.state()).requestCounts["POST /machines/createSingleMachinePublic"];
    while ((await creates()) === undefined) await new Promise((resolve) => setImmediate(resolve));
    await held.close();
    expect(await answer).toBe("connection");
    expect(timers()).toBe(before);
  });

  it("faults: hold request → not answered (nothing created) until released, then acts; only that request held", async () => {
    await fx.emu.control.addFaults([{ route: "/machines/createSingleMachinePublic", hold: "request" }]);
    const answer = fx.individual.post("/machines/createSingleMachinePublic", createBody());
    await heldCount(1);
    // Held as long as the test likes: other requests go on meanwhile.
    fx.emu.advance(3_600_000);
    expect((await fx.individual.get("/users/getUsers")).status).toBe(200);
    expect(await fx.emu.control.held()).toEqual([
      { method: "POST", route: "/machines/createSingleMachinePublic" },
    ]);
    expect(await machineCount()).toBe(0);
    expect(await fx.emu.control.release()).toEqual([
      { method: "POST", route: "/machines/createSingleMachinePublic" },
    ]);
    expect((await answer).status).toBe(200);
    expect(await machineCount()).toBe(1);
    expect(await fx.emu.control.held()).toEqual([]);
  });

  it("faults: hold all → that request and every API request after it held until released; then all act", async () => {
    await fx.emu.control.addFaults([{ route: "/machines/createSingleMachinePublic", hold: "all" }]);
    expect((await fx.individual.get("/users/getUsers")).status).toBe(200);
    const create = fx.individual.post("/machines/createSingleMachinePublic", createBody());
    await heldCount(1);
    const users = fx.individual.get("/users/getUsers");
    await heldCount(2);
    expect((await fx.emu.control.held()).map((r) => `${r.method} ${r.route}`)).toEqual([
      "POST /machines/createSingleMachinePublic",
      "GET /users/getUsers",
    ]);
    expect(await fx.emu.control.release()).toHaveLength(2);
    expect([(await create).status, (await users).status]).toEqual([200, 200]);
    // Released: the API answers again without holding.
    expect((await fx.individual.get("/users/getUsers")).status).toBe(200);
  });

  it("faults: hold with a status → held, then answered with the status when released", async () => {
    await fx.emu.control.addFaults([{ route: "/users/getUsers", hold: "request", status: 503 }]);
    const answer = fx.individual.get("/users/getUsers");
    await heldCount(1);
    await fx.emu.control.release();
    expect((await answer).status).toBe(503);
  });

  it("faults: the emulator closes while a request is held → its client's connection ends unanswered", async () => {
    const emu = await startTestEmulator();
    await emu.control.addFaults([{ route: "/machines/createSingleMachinePublic", hold: "request" }]);
    const answer = outcome(
      new Api(emu.url, emu.keys.individual).post("/machines/createSingleMachinePublic", createBody()),
    );
    while ((await emu.control.held()).length === 0) await new Promise((resolve) => setImmediate(resolve));
    await emu.close();
    expect(await answer).toBe("connection");
  });

  it("faults: cutAfterMs shorter than latencyMs → the connection is cut, and the create acts afterwards", async () => {
    await fx.emu.control.addFaults([
      { route: "/machines/createSingleMachinePublic", cutAfterMs: 20, latencyMs: 60 },
    ]);
    expect(await outcome(fx.individual.post("/machines/createSingleMachinePublic", createBody()))).toBe(
      "connection",
    );
    while ((await machineCount()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await machineCount()).toBe(1);
  });

  it("faults: cutAfterMs longer than the request takes → answered normally", async () => {
    await fx.emu.control.addFaults([{ route: "/users/getUsers", cutAfterMs: 60_000 }]);
    expect((await fx.individual.get("/users/getUsers")).status).toBe(200);
    expect((await fx.individual.get("/users/getUsers")).status).toBe(200);
  });

  it("faults: GET lists armed rules with remaining times; DELETE clears; control paths never fault", async () => {
    await fx.emu.control.addFaults([{ status: 500, times: 3 }]);
    await fx.emu.control.addFaults([
      { method: "GET", route: "/users/getUsers", status: 404, code: "not_found" },
    ]);
    expect((await fx.individual.get("/users/getUsers")).status).toBe(500);
    const listed = await fx.emu.control.faults();
    expect(listed.map((r) => [r.status, r.times])).toEqual([
      [500, 2],
      [404, 1],
    ]);
    await fx.emu.control.clearFaults();
    expect(await fx.emu.control.faults()).toEqual([]);
    expect((await fx.individual.get("/users/getUsers")).status).toBe(200);
  });

  it.each([
    [{ rules: [{ status: 200 }] }, "status"],
    [{ rules: [{ stauts: 500 }] }, "stauts"],
    [{ rules: [] }, "rules"],
    [{}, "rules"],
  ])("faults: invalid body %j → 400 naming the field", async (body, field) => {
    const res = await fx.individual.post<{ error: { message: string } }>("/_emulator/faults", body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });
});

describe("seeded random faults", () => {
  async function sequence(faultSeed: number, faultRate = 0.4): Promise<(number | "connection")[]> {
    const e = await startTestEmulator({ faultRate, faultSeed });
    try {
      const a = new Api(e.url, e.keys.individual);
      const out: (number | "connection")[] = [];
      for (let i = 0; i < 60; i++) out.push(await outcome(a.get("/users/getUsers")));
      // Control endpoints are never faulted.
      expect((await a.get("/_emulator/state")).status).toBe(200);
      return out;
    } finally {
      await e.close();
    }
  }

  it("random faults: same seed → same sequence; another seed → another; a mix of kinds", async () => {
    const [a, b, c] = [await sequence(7), await sequence(7), await sequence(8)];
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    const kinds = new Set([...a, ...c]);
    for (const kind of [200, 429, 500, 503, "connection"]) expect(kinds).toContain(kind);
  });

  it("random faults: rate 0 → none", async () => {
    expect(new Set(await sequence(7, 0))).toEqual(new Set([200]));
  });

  it("random faults: reset → the sequence starts again from the seed", async () => {
    const e = await startTestEmulator({ faultRate: 0.5, faultSeed: 3 });
    try {
      const a = new Api(e.url, e.keys.individual);
      const run = async () => {
        const out = [];
        for (let i = 0; i < 20; i++) out.push(await outcome(a.get("/users/getUsers")));
        return out;
      };
      const first = await run();
      await e.control.reset();
      expect(await run()).toEqual(first);
    } finally {
      await e.close();
    }
  });
});
