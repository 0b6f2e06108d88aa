/**
 * The retry policy against the emulator's scripted faults: 429 with Retry-After, 5xx, connection
 * resets, dropped responses and latency; and the no-duplicate guarantee of the creates.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import {
  AbortedError,
  ConflictError,
  ConnectionError,
  PayloadTooLargeError,
  RateLimitError,
  ServerError,
  TimeoutError,
  type VmApiError,
} from "../../../src/client/core/errors";
import { countDelta, machineRequest, useHarness } from "./harness";

const CREATE = "POST /machines/createSingleMachinePublic";
const LIST = "GET /machines/getMachines";
const CREATE_ROUTE = { method: "POST", route: "/machines/createSingleMachinePublic" };

const h = useHarness();
beforeEach(() => {
  h.sleeps.length = 0;
});

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as VmApiError,
  );

async function machinesNamed(name: string): Promise<string[]> {
  return (await h.client().machines.list({ name })).map((m) => m.id);
}

/** Runs `action` and returns the API requests it made. */
async function counting(action: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await h.counts();
  await action();
  return countDelta(before, await h.counts());
}

describe("retries of idempotent requests", () => {
  it("list: 429 with Retry-After 2 → waits exactly 2 s, then succeeds", async () => {
    await h.faults([{ method: "GET", route: "/machines/getMachines", status: 429, retryAfterSeconds: 2 }]);
    const counts = await counting(() => h.client().machines.list());
    expect(h.sleeps).toEqual([2000]);
    expect(counts).toEqual({ [LIST]: 2 });
  });

  it("list: 503 with Retry-After 3 → waits exactly 3 s (honoured on every retried answer), then succeeds", async () => {
    await h.faults([{ method: "GET", route: "/machines/getMachines", status: 503, retryAfterSeconds: 3 }]);
    const counts = await counting(() => h.client().machines.list());
    expect(h.sleeps).toEqual([3000]);
    expect(counts).toEqual({ [LIST]: 2 });
  });

  it("get: 500 twice → backoff 500 ms then 1 s, then succeeds", async () => {
    const m = await h.client().machines.create(machineRequest("r-get"));
    await h.faults([{ method: "GET", route: "/machines/getMachinePublic", status: 500, times: 2 }]);
    await expect(h.client().machines.get(m.id)).resolves.toMatchObject({ id: m.id });
    expect(h.sleeps).toEqual([438, 875]); // jitter at random 0.5 shortens by 12.5 %
  });

  it("log: a retried request → one line per attempt and retry, never the key", async () => {
    const lines: string[] = [];
    await h.faults([{ method: "GET", route: "/machines/getMachines", status: 500 }]);
    await h.client({ log: (line) => lines.push(line) }).machines.list();
    expect(lines).toEqual([
      "GET /machines/getMachines → 500 (0 ms)",
      expect.stringMatching(/^GET \/machines\/getMachines failed \(ServerError: .*\); retry #1 in 438 ms$/),
      "GET /machines/getMachines → 200 (0 ms)",
    ]);
    expect(lines.join("\n")).not.toContain(h.emu.keys.individual);
  });

  it("onRetry: a retried request → one notice per retry with method, path, error, count and delay", async () => {
    const notices: unknown[] = [];
    await h.faults([{ method: "GET", route: "/machines/getMachines", status: 503, times: 2 }]);
    await h.client({ onRetry: (notice) => notices.push(notice) }).machines.list();
    expect(notices).toEqual([
      expect.objectContaining({
        method: "GET",
        path: "/machines/getMachines",
        retry: 1,
        maxRetries: 3,
        delayMs: 438,
      }),
      expect.objectContaining({ retry: 2, delayMs: 875, error: expect.objectContaining({ status: 503 }) }),
    ]);
  });

  it("get: connection reset → retried", async () => {
    await h.faults([{ method: "GET", route: "/networks/getNetworks", reset: true }]);
    const counts = await counting(() => h.client().networks.list());
    expect(counts).toEqual({ "GET /networks/getNetworks": 2 });
  });

  it("get: latency below the timeout → one request; above it twice → TimeoutError", async () => {
    await h.faults([{ method: "GET", route: "/users/getUsers", latencyMs: 20 }]);
    await expect(h.client().users.list()).resolves.toHaveLength(1);
    await h.faults([{ method: "GET", route: "/users/getUsers", latencyMs: 400, times: 2 }]);
    const error = await fail(h.client({ timeoutMs: 100, maxRetries: 1 }).users.list());
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("destroy: connection reset, then a 400 'not found' on the retry → that error, not success (the machine lives)", async () => {
    const m = await h.client().machines.create(machineRequest("r-destroy-400"));
    await h.faults([
      { method: "POST", route: "/machines/{machineId}/destroyMachine", reset: true },
      { method: "POST", route: "/machines/{machineId}/destroyMachine", status: 400, code: "not_found" },
    ]);
    await expect(h.client().machines.destroy(m.id)).rejects.toMatchObject({ status: 400 });
    expect(await machinesNamed("r-destroy-400")).toEqual([m.id]);
  });

  it("destroy: response dropped, then 404 on the retry → success (the first attempt did it)", async () => {
    const m = await h.client().machines.create(machineRequest("r-destroy"));
    await h.faults([{ method: "POST", route: "/machines/{machineId}/destroyMachine", dropResponse: true }]);
    await expect(h.client().machines.destroy(m.id)).resolves.toBeUndefined();
    expect(await machinesNamed("r-destroy")).toEqual([]);
  });
});

describe("errors once retries are spent", () => {
  it("list: 500 with maxRetries 0 → ServerError", async () => {
    await h.faults([{ method: "GET", route: "/machines/getMachines", status: 500 }]);
    const error = await fail(h.client({ maxRetries: 0 }).machines.list());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, method: "GET", path: "/machines/getMachines" });
  });

  it("list: 429 with maxRetries 0 → RateLimitError with retryAfterMs", async () => {
    await h.faults([{ method: "GET", route: "/machines/getMachines", status: 429, retryAfterSeconds: 7 }]);
    const error = await fail(h.client({ maxRetries: 0 }).machines.list());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
  });

  it("scripts.create: 413 → PayloadTooLargeError, not retried", async () => {
    await h.faults([{ method: "POST", route: "/scripts/createScript", status: 413 }]);
    const counts = await counting(async () => {
      const error = await fail(h.client().scripts.create({ scriptName: "r-413", scriptText: "echo" }));
      expect(error).toBeInstanceOf(PayloadTooLargeError);
    });
    expect(counts).toEqual({ "POST /scripts/createScript": 1 });
  });

  it("any call: connection refused → retried, then ConnectionError the server cannot have seen", async () => {
    const closed = await closedPortUrl();
    const error = await fail(h.client({ baseUrl: closed }).machines.create(machineRequest("r-refused")));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: "ECONNREFUSED", requestMayHaveReachedServer: false });
    expect(h.sleeps).toHaveLength(3);
  });

  it("get: signal aborted during a slow response → AbortedError at once, no retry and no wait", async () => {
    // The answer is an hour away: only the abort can end the call before the test's timeout,
    // however loaded the machine is. Time the client spends is read on its injected clock.
    await h.faults([{ method: "GET", route: "/templates/getTemplates", latencyMs: 3_600_000 }]);
    const controller = new AbortController();
    const started = h.elapsed();
    setTimeout(() => controller.abort(), 20);
    const error = await fail(h.client().templates.list({}, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(h.sleeps).toEqual([]);
    expect(h.elapsed() - started).toBe(0);
  });
});

describe("creates never duplicate", () => {
  it("machines.create: response dropped after the server acted → the machine it made, one create", async () => {
    await h.faults([{ ...CREATE_ROUTE, dropResponse: true }]);
    let created: { id: string } | undefined;
    const counts = await counting(async () => {
      created = await h.client().machines.create(machineRequest("r-drop"));
    });
    expect(await machinesNamed("r-drop")).toEqual([created?.id]);
    expect(counts).toEqual({ [CREATE]: 1, [LIST]: 2 }); // snapshot, create, lookup
  });

  it("machines.create: response dropped, a namesake already existed → ours, never the namesake", async () => {
    const older = await h.client().machines.create(machineRequest("r-namesake"));
    await h.faults([{ ...CREATE_ROUTE, dropResponse: true }]);
    const ours = await h.client().machines.create(machineRequest("r-namesake"));
    expect(ours.id).not.toBe(older.id);
    expect((await machinesNamed("r-namesake")).sort()).toEqual([older.id, ours.id].sort());
  });

  it("machines.create: 500 (server did not act) → looked up, not found, sent again: one machine", async () => {
    await h.faults([{ ...CREATE_ROUTE, status: 500 }]);
    const counts = await counting(() => h.client().machines.create(machineRequest("r-500")));
    expect(await machinesNamed("r-500")).toHaveLength(1);
    expect(counts).toEqual({ [CREATE]: 2, [LIST]: 2 });
  });

  it("machines.create: connection reset before acting → looked up, sent again: one machine", async () => {
    await h.faults([{ ...CREATE_ROUTE, reset: true }]);
    await h.client().machines.create(machineRequest("r-reset"));
    expect(await machinesNamed("r-reset")).toHaveLength(1);
  });

  it("machines.create: 429 and 503 → sent again without a lookup (the server cannot have acted)", async () => {
    await h.faults([
      { ...CREATE_ROUTE, status: 429, retryAfterSeconds: 1 },
      { ...CREATE_ROUTE, status: 503 },
    ]);
    const counts = await counting(() => h.client().machines.create(machineRequest("r-429")));
    expect(counts).toEqual({ [CREATE]: 3, [LIST]: 1 });
    expect(h.sleeps[0]).toBe(1000);
    expect(await machinesNamed("r-429")).toHaveLength(1);
  });

  it("machines.create: every attempt dropped → still one machine, returned", async () => {
    await h.faults([{ ...CREATE_ROUTE, dropResponse: true, times: 4 }]);
    const m = await h.client().machines.create(machineRequest("r-drop-all"));
    expect(await machinesNamed("r-drop-all")).toEqual([m.id]);
  });

  it("scripts.create: response dropped → sent again, 409, the script is fetched: one script", async () => {
    await h.faults([{ method: "POST", route: "/scripts/createScript", dropResponse: true }]);
    const counts = await counting(async () => {
      const script = await h.client().scripts.create({ scriptName: "r-script", scriptText: "echo hi" });
      expect(script.name).toBe("r-script");
    });
    expect(counts).toEqual({
      "POST /scripts/createScript": 2,
      "GET /scripts/getScripts": 1,
      "GET /scripts/getScriptText": 1,
    });
    expect(await h.client().scripts.list({ name: "r-script" })).toHaveLength(1);
  });

  it("scripts.create: reset, then 409 from a namesake with other text → ConflictError, never the namesake", async () => {
    await h.client().scripts.create({ scriptName: "r-script-namesake", scriptText: "echo theirs" });
    await h.faults([{ method: "POST", route: "/scripts/createScript", reset: true }]);
    const create = h.client().scripts.create({ scriptName: "r-script-namesake", scriptText: "echo ours" });
    await expect(create).rejects.toBeInstanceOf(ConflictError);
  });

  it("machines.restart: response dropped → ConnectionError, not sent twice", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("r-restart"));
    h.advance(60_000);
    await h.faults([{ method: "POST", route: "/machines/{machineId}/restart", dropResponse: true }]);
    const counts = await counting(async () => {
      await expect(client.machines.restart(m.id)).rejects.toBeInstanceOf(ConnectionError);
    });
    expect(counts).toEqual({ [`POST /machines/{machineId}/restart`]: 1 });
  });
});

/** A loopback URL where nothing listens. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
