/**
 * The HTTP edge: malformed JSON, wrong content type, oversize bodies, unknown routes, wrong
 * methods, missing or bad keys, an unexpected exception, and what the request log contains.
 */
import * as http from "node:http";
import { NestedErrorBodySchema } from "../../../src/contract/schemas";
import { useTestEmulator } from "../../kit/emulator";
import { Api, createBody } from "./api";
import { SEEDED } from "../../kit/seeded";

const lines: string[] = [];
const emu = useTestEmulator({ log: (line) => lines.push(line) });
let api: Api;
beforeAll(async () => {
  api = new Api(emu.url, emu.keys.individual);
});

function expectError(res: { status: number; body: unknown }, status: number, code: string, message?: RegExp) {
  expect(res.status).toBe(status);
  const body = NestedErrorBodySchema.parse(res.body);
  expect(body.error).toMatchObject({ name: "Error", status, code });
  if (message) expect(body.error.message).toMatch(message);
}

/** A raw request with node:http, for bodies fetch would not send as is. */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: Buffer,
): Promise<{ status: number; body: unknown; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, emu.url), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({
          status: res.statusCode ?? 0,
          body: text ? JSON.parse(text) : undefined,
          headers: res.headers,
        });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("request edge cases", () => {
  it("POST: malformed JSON → 400 malformed_json", async () => {
    const res = await api.call("POST", "/machines/createSingleMachinePublic", {
      raw: "{bad",
      headers: { "Content-Type": "application/json" },
    });
    expectError(res, 400, "malformed_json", /not valid JSON/);
  });

  it("POST: body with a text/plain content type → 415 unsupported_media_type", async () => {
    const res = await api.call("POST", "/machines/createSingleMachinePublic", {
      raw: JSON.stringify(createBody()),
      headers: { "Content-Type": "text/plain" },
    });
    expectError(res, 415, "unsupported_media_type", /application\/json/);
  });

  it("POST: application/json; charset=utf-8 → accepted", async () => {
    const res = await api.call("POST", "/machines/createSingleMachinePublic", {
      raw: JSON.stringify(createBody()),
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(200);
  });

  it("POST: body over 1 MiB → 413 payload_too_large, and the server keeps answering", async () => {
    const big = Buffer.from(JSON.stringify({ pad: "x".repeat(1024 * 1024 + 10) }));
    const res = await rawRequest(
      "POST",
      "/machines/createSingleMachinePublic",
      { "Content-Type": "application/json", "Content-Length": big.length, "X-Api-Key": emu.keys.individual },
      big,
    );
    expectError(res, 413, "payload_too_large", /larger than 1048576 bytes/);
    expect((await api.get("/users/getUsers")).status).toBe(200);
  });

  it("GET: unknown route → 404 route_not_found", async () => {
    expectError(await api.get("/machines/nope"), 404, "route_not_found", /no route for GET \/machines\/nope/);
    expectError(await api.get("/"), 404, "route_not_found");
  });

  it("GET on a POST route → 405 method_not_allowed with Allow", async () => {
    const res = await api.get("/machines/ps1234567/start");
    expectError(res, 405, "method_not_allowed", /use POST/);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("POST without a key → 401; with an unknown key → 401 invalid_api_key", async () => {
    expectError(await api.as(null).get("/users/getUsers"), 401, "invalid_api_key", /missing X-Api-Key/);
    expectError(await api.as("nope").get("/users/getUsers"), 401, "invalid_api_key", /invalid API key/);
  });

  it("start/stop with an empty body and no content type → accepted", async () => {
    const m = (await api.post<{ id: string }>("/machines/createSingleMachinePublic", createBody())).body;
    emu.advance(60_000);
    expect((await api.call("POST", `/machines/${m.id}/stop`)).status).toBe(204);
    expect((await api.call("POST", `/machines/${m.id}/stop`)).text).toBe("");
  });

  it("path parameter with bad percent-encoding → 404, not a crash", async () => {
    expectError(await api.post("/machines/%E0%A4%A/start"), 404, "route_not_found");
  });

  it("log: one line per request with method, route, status, ms; never the key or passwords", async () => {
    lines.length = 0;
    await api.as("secret-key-value").get("/users/getUsers");
    await new Api(emu.url, emu.keys.teamAdmin).post(
      "/machines/createSingleMachinePublic",
      createBody({
        teamId: SEEDED.team,
        email: "p@acme.example",
        password: "pw-should-not-leak",
        firstName: "P",
        lastName: "Q",
      }),
    );
    await api.post("/scripts/createScript", { scriptName: "s", scriptText: "script-text-should-not-leak" });
    expect(lines).toEqual([
      expect.stringMatching(/^GET \/users\/getUsers 401 \d+ms$/),
      expect.stringMatching(/^POST \/machines\/createSingleMachinePublic 200 \d+ms$/),
      expect.stringMatching(/^POST \/scripts\/createScript 200 \d+ms$/),
    ]);
    const all = lines.join("\n");
    for (const secret of [
      "secret-key-value",
      emu.keys.teamAdmin,
      emu.keys.individual,
      "pw-should-not-leak",
      "script-text-should-not-leak",
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});

describe("the key is checked before the body", () => {
  const path = "/machines/createSingleMachinePublic";

  it("POST: no key and malformed JSON → 401, not 400", async () => {
    const res = await api.as(null).call("POST", path, {
      raw: "{bad",
      headers: { "Content-Type": "application/json" },
    });
    expectError(res, 401, "invalid_api_key");
  });

  it("POST: unknown key and a text/plain body → 401, not 415", async () => {
    const res = await api
      .as("nope")
      .call("POST", path, { raw: "x", headers: { "Content-Type": "text/plain" } });
    expectError(res, 401, "invalid_api_key");
  });

  it("POST: no key and a broken multipart upload → 401, not 400", async () => {
    const res = await api.as(null).call("POST", "/scripts/createScript", {
      raw: "garbage",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expectError(res, 401, "invalid_api_key");
  });

  it("POST: no key and a body over 1 MiB → 401 with Connection: close, not 413", async () => {
    const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
    const res = await rawRequest(
      "POST",
      path,
      { "Content-Type": "application/json", "Content-Length": big.length },
      big,
    );
    expectError(res, 401, "invalid_api_key");
    expect(res.headers.connection).toBe("close");
  });

  it("POST: a valid key and malformed JSON → 400 malformed_json", async () => {
    const res = await api.call("POST", path, {
      raw: "{bad",
      headers: { "Content-Type": "application/json" },
    });
    expectError(res, 400, "malformed_json");
  });
});

describe("the log line of a path that matched no route", () => {
  async function logged(path: string, method = "GET"): Promise<string> {
    lines.length = 0;
    await api.call(method, path);
    expect(lines).toHaveLength(1);
    return lines[0];
  }

  it("log: unknown route → route words and plain words kept", async () => {
    expect(await logged("/machines/getMachine")).toMatch(/^GET \/machines\/getMachine 404 \d+ms$/);
  });

  it("log: an account key or a delegation token in the path → {key}", async () => {
    const line = await logged(`/machines/getMachinePublic/${emu.keys.individual}`);
    expect(line).toMatch(/^GET \/machines\/getMachinePublic\/\{key\} 404 \d+ms$/);
    const token = (
      await api.post<{ accessTokenId: string }>("/resourceDelegations/create", { machine: { ids: [] } })
    ).body.accessTokenId;
    expect(await logged(`/x/${token}`)).toMatch(/^GET \/x\/\{key\} 404/);
    expect(await logged(`/x/${encodeURIComponent(emu.keys.teamAdmin)}`)).not.toContain(emu.keys.teamAdmin);
  });

  it("log: key-like, encoded or overlong segments → placeholders, never the text", async () => {
    const long = "a".repeat(200);
    const line = await logged(`/scripts/sk_live_4eC39HqLyjWDarjtT1/x%20y/${long}`);
    expect(line).toMatch(/^GET \/scripts\/\{…\}\/\{…\}\/\{200 chars\} 404 \d+ms$/);
  });

  it("log: a known path with the wrong method → its route template, not the ids in it", async () => {
    expect(await logged("/machines/ps1234567/start")).toMatch(/^GET \/machines\/\{machineId\}\/start 405 /);
  });
});

describe("unexpected exceptions", () => {
  it("a route that throws → 500 internal_error, and the server keeps running", async () => {
    const { API_ROUTES } = await import("../../../src/emulator/http/routes");
    const route = API_ROUTES.find((r) => r.template === "/networks/getNetworks")!;
    const original = route.handle;
    (route as { handle: typeof original }).handle = () => {
      throw new Error("boom");
    };
    try {
      expectError(await api.get("/networks/getNetworks"), 500, "internal_error");
      expect(lines.some((l) => l.includes("boom"))).toBe(true);
    } finally {
      (route as { handle: typeof original }).handle = original;
    }
    expect((await api.get("/networks/getNetworks")).status).toBe(200);
  });
});
