/**
 * Wire shapes the real service used but the emulator deliberately does not send (docs/api.md,
 * "Errors"): the flat error body, not-found under a 400, a delegation as a one-element array, a
 * 201, and a server that drifts from the contract. A minimal real HTTP server on loopback answers
 * them; all else is tested against the emulator.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { VmApiClient } from "../../../src/client/client";
import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  ResponseValidationError,
  TimeoutError,
  VmApiError,
} from "../../../src/client/core/errors";
import { wireMachine } from "../../kit/machines";

interface Canned {
  status: number;
  body?: unknown;
  raw?: string;
  delayMs?: number;
}

const KEY = "wire-facts-secret-key";
let server: Server;
let baseUrl: string;
let answer: (req: IncomingMessage) => Canned;
const seen: { method?: string; url?: string; key?: string | string[]; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, key: req.headers["x-api-key"], body });
      const canned = answer(req);
      const send = () => {
        const text = canned.raw ?? (canned.body === undefined ? "" : JSON.stringify(canned.body));
        res.writeHead(canned.status, text ? { "Content-Type": "application/json" } : {});
        res.end(text);
      };
      if (canned.delayMs) setTimeout(send, canned.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

const client = (options = {}) =>
  new VmApiClient({ apiKey: KEY, baseUrl, env: {}, maxRetries: 0, sleep: async () => {}, ...options });

const machine = wireMachine();

const delegation = {
  id: 7,
  delegation: { machine: { ids: ["ps1"] } },
  isEnabled: true,
  accessTokenId: "tok-1",
  dtCreated: "2026-01-01T00:00:00.000Z",
};

describe("wire facts of the real service", () => {
  it("any call: sends X-Api-Key and JSON; IDs in paths encoded", async () => {
    answer = () => ({ status: 204 });
    await client().machines.update("ps/1?x", { machineName: "n" });
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: "/machines/ps%2F1%3Fx/updateMachinePublic",
      key: KEY,
      body: '{"machineName":"n"}',
    });
  });

  it("start: 204 with an empty body → resolves", async () => {
    answer = () => ({ status: 204 });
    await expect(client().machines.start("ps1")).resolves.toBeUndefined();
  });

  it("stop: 200 with a JSON body → resolves (any 2xx)", async () => {
    answer = () => ({ status: 200, body: { ok: true } });
    await expect(client().machines.stop("ps1")).resolves.toBeUndefined();
  });

  it("resourceDelegations.create: one-element array (older docs) → the object", async () => {
    answer = () => ({ status: 201, body: [delegation] });
    await expect(client().resourceDelegations.create({ machine: { ids: ["ps1"] } })).resolves.toEqual(
      delegation,
    );
  });

  it("get: flat 'Invalid API token' under 400 → AuthenticationError without the key", async () => {
    answer = () => ({ status: 400, body: { status: 400, message: "Invalid API token" } });
    const error = await client()
      .machines.get("ps1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(KEY);
  });

  it("get: 400 with error.status 404 → NotFoundError", async () => {
    answer = () => ({
      status: 400,
      body: { error: { name: "Error", status: 404, message: "Machine not found" } },
    });
    await expect(client().machines.get("ps1")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("scripts.get: 400 with a 'not found' message → NotFoundError", async () => {
    answer = () => ({ status: 400, body: { error: { name: "Error", message: "Script not found" } } });
    await expect(client().scripts.get("sc1")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("get: a machine in a state the contract lacks → ResponseValidationError naming the field", async () => {
    answer = () => ({ status: 200, body: { ...machine, state: "hibernating" } });
    const error = (await client()
      .machines.get("ps1")
      .catch((e: unknown) => e)) as VmApiError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe(
      "response of GET /machines/getMachinePublic does not match the contract: state must be one of: " +
        'off, starting, stopping, restarting, serviceready, ready, upgrading, provisioning (got "hibernating")',
    );
  });

  it("list: many drifted fields → the first few named, the rest counted", async () => {
    answer = () => ({ status: 200, body: [{ id: "ps1" }] });
    const error = (await client()
      .machines.list()
      .catch((e: unknown) => e)) as VmApiError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatch(/0\.name is required; .* and \d+ more$/);
  });

  it("get: the machine as specified → parsed, unknown fields stripped", async () => {
    answer = () => ({ status: 200, body: { ...machine, futureField: 1 } });
    await expect(client().machines.get("ps1")).resolves.toEqual(machine);
  });

  it("list: HTML instead of JSON → ResponseValidationError", async () => {
    answer = () => ({ status: 200, raw: "<html>maintenance</html>" });
    await expect(client().users.list()).rejects.toThrow(/is not JSON/);
  });

  it("list: 3xx redirect → not followed (the key would travel along)", async () => {
    answer = () => ({ status: 302, raw: "" });
    await expect(client().networks.list()).rejects.toBeInstanceOf(VmApiError);
    expect(seen).toHaveLength(1);
  });

  it("get: slower than timeoutMs → TimeoutError", async () => {
    answer = () => ({ status: 200, body: {}, delayMs: 300 });
    const error = await client({ timeoutMs: 50 })
      .machines.get("ps1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
  });
});
