/**
 * Throttling on the wire: per API key, past the burst a 429 with Retry-After and the nested
 * error body, refilled by the manual clock; changed at run time through
 * POST /_emulator/rate-limit; counted in the state dump without a key; off by default; the
 * control endpoints are never throttled.
 */
import { startTestEmulator, useTestEmulator } from "../../kit/emulator";
import { Api, createBody, SEEDED, useFixture } from "./api";

const MACHINES = "/machines/getMachines";

describe("off by default", () => {
  const emu = useTestEmulator();

  it("rate limit: no flag → 60 requests at one instant all answered, counted as served", async () => {
    const api = new Api(emu.url, emu.keys.individual);
    const statuses = await Promise.all(Array.from({ length: 60 }, () => api.get(MACHINES)));
    expect(statuses.map((a) => a.status)).toEqual(statuses.map(() => 200));
    expect((await emu.control.state()).rateLimit).toEqual({
      rate: null,
      burst: null,
      served: 60,
      refused: 0,
      perKey: { [SEEDED.individualUser]: { served: 60, refused: 0 } },
    });
  });
});

describe("started with rateLimit 2/s, burst 3", () => {
  const lines: string[] = [];
  const emu = useTestEmulator({ rateLimit: 2, rateBurst: 3, log: (line) => lines.push(line) });
  let api: Api;
  beforeAll(async () => {
    api = new Api(emu.url, emu.keys.individual);
  });
  beforeEach(async () => {
    await emu.control.reset();
    lines.length = 0;
  });

  it("rate limit: past the burst → 429 rate_limited, Retry-After in seconds, the nested error body", async () => {
    for (let i = 0; i < 3; i++) expect((await api.get(MACHINES)).status).toBe(200);
    const refused = await api.get<{ error: Record<string, unknown> }>(MACHINES);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.body).toEqual({
      error: {
        name: "Error",
        status: 429,
        code: "rate_limited",
        message: "rate limit exceeded: 2 requests/s (burst 3) per API key; retry after 1 s",
      },
    });
  });

  it("rate limit: the manual clock refills the bucket (500 ms at 2/s = one more request)", async () => {
    for (let i = 0; i < 3; i++) await api.get(MACHINES);
    expect((await api.get(MACHINES)).status).toBe(429);
    await emu.control.advance(499);
    expect((await api.get(MACHINES)).status).toBe(429);
    await emu.control.advance(1);
    expect((await api.get(MACHINES)).status).toBe(200);
    expect((await api.get(MACHINES)).status).toBe(429);
  });

  it("rate limit: per key → another key of the same emulator keeps its own budget", async () => {
    for (let i = 0; i < 4; i++) await api.get(MACHINES);
    expect((await api.get(MACHINES)).status).toBe(429);
    const admin = api.as(emu.keys.teamAdmin);
    for (let i = 0; i < 3; i++) expect((await admin.get(MACHINES)).status).toBe(200);
    expect((await admin.get(MACHINES)).status).toBe(429);
  });

  it("rate limit: a refused create changes nothing", async () => {
    for (let i = 0; i < 3; i++) await api.get(MACHINES);
    const refused = await api.post("/machines/createSingleMachinePublic", createBody());
    expect(refused.status).toBe(429);
    expect((await emu.control.state()).machines).toEqual([]);
  });

  it("state: served and refused per caller (its user id), in all; requestCounts include the refused; no key anywhere", async () => {
    for (let i = 0; i < 5; i++) await api.get(MACHINES);
    await api.as(emu.keys.teamAdmin).get(MACHINES);
    await api.as("no-such-key").get(MACHINES);
    const dump = await emu.control.state();
    expect(dump.rateLimit).toEqual({
      rate: 2,
      burst: 3,
      served: 5,
      refused: 2,
      perKey: {
        [SEEDED.individualUser]: { served: 3, refused: 2 },
        [SEEDED.admin]: { served: 1, refused: 0 },
        "unknown key": { served: 1, refused: 0 },
      },
    });
    expect(dump.requestCounts[`GET ${MACHINES}`]).toBe(7);
    expect(await emu.control.rateLimit()).toEqual(dump.rateLimit);
    const text = JSON.stringify(dump) + lines.join("\n");
    for (const key of Object.values(emu.keys)) expect(text).not.toContain(key);
    expect(lines.filter((l) => /^GET \/machines\/getMachines 429 \d+ms$/.test(l))).toHaveLength(2);
  });

  it("control endpoints: never throttled, while the key is", async () => {
    for (let i = 0; i < 3; i++) await api.get(MACHINES);
    expect((await api.get(MACHINES)).status).toBe(429);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.get("/_emulator/state")));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  });

  it("reset: back to the start-up limit with a full bucket and no counts", async () => {
    await emu.control.setRateLimit({ rate: 100, burst: 100 });
    for (let i = 0; i < 4; i++) await api.get(MACHINES);
    await emu.control.reset();
    expect(await emu.control.rateLimit()).toEqual({ rate: 2, burst: 3, served: 0, refused: 0, perKey: {} });
    for (let i = 0; i < 3; i++) expect((await api.get(MACHINES)).status).toBe(200);
    expect((await api.get(MACHINES)).status).toBe(429);
  });
});

describe("POST /_emulator/rate-limit", () => {
  const fx = useFixture({}, { resetEach: true });

  it("rate-limit: turned on at run time → throttles; burst defaults to one second's worth; null → off again", async () => {
    expect(await fx.emu.control.setRateLimit({ rate: 1 })).toMatchObject({ rate: 1, burst: 1 });
    expect((await fx.individual.get(MACHINES)).status).toBe(200);
    expect((await fx.individual.get(MACHINES)).status).toBe(429);
    expect(await fx.emu.control.setRateLimit({ rate: 2.5 })).toMatchObject({ rate: 2.5, burst: 3 });
    expect(await fx.emu.control.setRateLimit({ rate: null })).toMatchObject({ rate: null, burst: null });
    const answers = await Promise.all(Array.from({ length: 10 }, () => fx.individual.get(MACHINES)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  });

  it.each([
    [{ rate: 0 }, "rate"],
    [{ rate: -1 }, "rate"],
    [{ rate: "5" }, "rate"],
    [{}, "rate"],
    [{ rate: 5, burst: 0 }, "burst"],
    [{ rate: 5, burst: 1.5 }, "burst"],
    [{ rate: 5, perSecond: true }, "perSecond"],
  ])("rate-limit: %j → 400 validation_failed naming %s, limit unchanged", async (body, field) => {
    await fx.emu.control.setRateLimit({ rate: 1, burst: 2 });
    const answer = await fx.individual.post<{ error: { code: string; message: string } }>(
      "/_emulator/rate-limit",
      body,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("validation_failed");
    expect(answer.body.error.message).toContain(field);
    expect(await fx.emu.control.rateLimit()).toMatchObject({ rate: 1, burst: 2 });
  });
});

describe("startEmulator options", () => {
  it.each([
    [{ rateLimit: 0 }, "rateLimit must be a number of requests per second > 0 (got 0)"],
    [{ rateLimit: 5, rateBurst: 0.5 }, "rateBurst must be an integer >= 1 (got 0.5)"],
    [{ rateBurst: 3 }, "rateBurst needs rateLimit: a burst without a rate limits nothing"],
  ])("startEmulator(%j) → RangeError naming the option", async (options, message) => {
    await expect(startTestEmulator(options)).rejects.toThrow(new RangeError(message));
  });
});
