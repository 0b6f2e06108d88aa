/**
 * Requests broken at the HTTP level, written as raw bytes on a socket: bad request lines and
 * targets, oversized headers, bad framing, unknown methods, CONNECT, a client that vanishes
 * mid-body. Each gets a 4xx with the nested error body (or, for a vanished client, nothing and no
 * internal error), never a crash or a hang, and the emulator keeps answering with its state intact.
 */
import * as net from "node:net";
import { ENDPOINTS } from "./support/endpoints";
import { expectClientError, send, sendBytes } from "./support/http";
import { useHostileWorld } from "./support/hostileWorld";

const lines: string[] = [];
const hostile = useHostileWorld({ log: (line) => lines.push(line) });

const KEY = "X-Api-Key: dev-individual-key\r\n";
const CLOSE = "Connection: close\r\n\r\n";
const post = (headers: string, body = "") =>
  `POST /scripts/createScript HTTP/1.1\r\nHost: x\r\n${KEY}Content-Type: application/json\r\n${headers}${CLOSE}${body}`;

/** [what, raw request, status, code]. */
const RAW: [string, string | Buffer, number, string][] = [
  [
    "an absolute target with a bad host",
    `GET http://[::1 HTTP/1.1\r\nHost: x\r\n${CLOSE}`,
    400,
    "validation_failed",
  ],
  [
    "a scheme-relative target with a bad host",
    `GET //[ HTTP/1.1\r\nHost: x\r\n${CLOSE}`,
    400,
    "validation_failed",
  ],
  ["HTTP/1.1 without Host", `GET /users/getUsers HTTP/1.1\r\n${KEY}${CLOSE}`, 400, "validation_failed"],
  [
    "a request line over 16 KB",
    `GET /users/getUsers?${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${CLOSE}`,
    431,
    "payload_too_large",
  ],
  [
    "an X-Api-Key of 20 KB",
    `GET /users/getUsers HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${"k".repeat(20_000)}\r\n${CLOSE}`,
    431,
    "payload_too_large",
  ],
  [
    "10,000 headers",
    `GET /users/getUsers HTTP/1.1\r\nHost: x\r\n${"X-A: b\r\n".repeat(10_000)}${CLOSE}`,
    431,
    "payload_too_large",
  ],
  ["an unknown method", `FOO /users/getUsers HTTP/1.1\r\nHost: x\r\n${CLOSE}`, 400, "validation_failed"],
  ["an HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400, "validation_failed"],
  ["HTTP/9.9", `GET /users/getUsers HTTP/9.9\r\nHost: x\r\n${CLOSE}`, 400, "validation_failed"],
  ["a space in the target", `GET /users/get Users HTTP/1.1\r\nHost: x\r\n${CLOSE}`, 400, "validation_failed"],
  [
    "a NUL in the target",
    `GET /users/\u0000getUsers HTTP/1.1\r\nHost: x\r\n${CLOSE}`,
    400,
    "validation_failed",
  ],
  [
    "raw 0xFF bytes in the target",
    Buffer.concat([
      Buffer.from("GET /machines/getMachinePublic?machineId="),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(` HTTP/1.1\r\nHost: x\r\n${KEY}${CLOSE}`),
    ]),
    400,
    "validation_failed",
  ],
  [
    "a control character in X-Api-Key",
    `GET /users/getUsers HTTP/1.1\r\nHost: x\r\nX-Api-Key: dev\u0001key\r\n${CLOSE}`,
    400,
    "validation_failed",
  ],
  [
    "a header line without a colon",
    `GET /users/getUsers HTTP/1.1\r\nHost: x\r\nNoColon\r\n${CLOSE}`,
    400,
    "validation_failed",
  ],
  [
    "an obsolete folded header",
    `GET /users/getUsers HTTP/1.1\r\nHost: x\r\n${KEY}  folded\r\n${CLOSE}`,
    400,
    "validation_failed",
  ],
  ["Content-Length: abc", post("Content-Length: abc\r\n"), 400, "validation_failed"],
  [
    "two different Content-Lengths",
    post("Content-Length: 2\r\nContent-Length: 3\r\n", "{}"),
    400,
    "validation_failed",
  ],
  [
    "Content-Length with chunked",
    post("Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"),
    400,
    "validation_failed",
  ],
  [
    "a bad chunk size after valid headers",
    post("Transfer-Encoding: chunked\r\n", "zz\r\nabc\r\n0\r\n\r\n"),
    400,
    "validation_failed",
  ],
  [
    "Transfer-Encoding: gzip without chunked",
    post("Transfer-Encoding: gzip\r\n", "abc"),
    400,
    "validation_failed",
  ],
  ["CONNECT", `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`, 405, "method_not_allowed"],
];

describe("requests node:http cannot parse", () => {
  it.each(RAW.map(([what, bytes, status, code]) => [what, status, code, bytes] as const))(
    "raw request: %s → %s %s, nested body, server up, nothing changed",
    async (_what, status, code, bytes) => {
      const answer = await sendBytes(hostile.world.url, bytes);
      expectClientError(answer, status, code);
      expect(
        (await send(hostile.world.url, { path: "/users/getUsers", key: hostile.world.keys.individual }))
          .status,
      ).toBe(200);
      await hostile.expectUnchanged();
      expect(lines.join("\n")).not.toMatch(/internal error/);
    },
  );
});

describe("methods", () => {
  const methods = ["PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"];
  it.each(methods)(
    "every endpoint: %s → 405 method_not_allowed with Allow and the nested body",
    async (method) => {
      for (const endpoint of ENDPOINTS) {
        const { path } = endpoint.request(hostile.world.individual, "m");
        const answer = await send(hostile.world.url, { method, path, key: hostile.world.keys.individual });
        expectClientError(answer, 405, "method_not_allowed");
        expect(answer.headers.allow).toBe(endpoint.method);
      }
      await hostile.expectUnchanged();
    },
  );

  it("every endpoint: HEAD → 405 with Allow and no body (HEAD answers never carry one)", async () => {
    for (const endpoint of ENDPOINTS) {
      const { path } = endpoint.request(hostile.world.individual, "h");
      const answer = await send(hostile.world.url, {
        method: "HEAD",
        path,
        key: hostile.world.keys.individual,
      });
      expect([answer.status, answer.headers.allow, answer.text]).toEqual([405, endpoint.method, ""]);
    }
  });
});

describe("clients that go away", () => {
  it("createScript: the client closes mid-body → no internal error, nothing created, server up", async () => {
    lines.length = 0;
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(new URL(hostile.world.url).port), "127.0.0.1", () => {
        socket.write(`${post("Content-Length: 1000\r\n").replace(CLOSE, "\r\n")}{"scriptName":"half`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on("close", () => resolve());
      socket.on("error", () => undefined);
    });
    for (let i = 0; i < 100 && lines.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toEqual([expect.stringMatching(/^POST \/scripts\/createScript 400 \d+ms$/)]);
    await hostile.expectUnchanged();
  });

  it("createScript: half-closed mid-body → a 400 nested answer, then the connection closes", async () => {
    const { port } = new URL(hostile.world.url);
    const text = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1", () =>
        socket.end(`${post("Content-Length: 1000\r\n").replace(CLOSE, "\r\n")}{"scriptName":"half`),
      );
      let out = "";
      socket.on("data", (c: Buffer) => (out += c.toString()));
      socket.on("close", () => resolve(out));
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('"code":"validation_failed"');
    await hostile.expectUnchanged();
  });
});
