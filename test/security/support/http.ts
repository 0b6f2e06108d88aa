/**
 * Raw HTTP for the security tests: node:http (not the client, not fetch) so malformed paths,
 * headers and bytes reach the emulator as written, plus a socket-level sender for requests that
 * are not even valid HTTP. Every call has a timeout: a hang fails the test instead of stalling it.
 */
import * as http from "node:http";
import * as net from "node:net";
import { z } from "zod";
import { ERROR_CODES } from "../../../src/contract/constants";
import { control, stateWithoutCounts } from "../../kit/emulator";

/** What came back. `body` is the parsed JSON, or undefined when the text is empty or not JSON. */
export interface RawAnswer {
  status: number;
  text: string;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

/** One request. `path` is sent verbatim (query included); `key: null` sends no X-Api-Key. */
export interface RawRequest {
  method?: string;
  path: string;
  key?: string | null;
  headers?: http.OutgoingHttpHeaders;
  /** Sent as is; `json` is stringified and typed application/json instead. */
  body?: string | Buffer;
  json?: unknown;
  timeoutMs?: number;
}

/** Longest any single answer may take before the test calls it a hang. */
export const ANSWER_TIMEOUT_MS = 5_000;

function parseJson(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends one request with node:http and resolves with the answer; rejects on a hang. */
export function send(baseUrl: string, req: RawRequest): Promise<RawAnswer> {
  const headers: http.OutgoingHttpHeaders = { ...req.headers };
  if (req.key !== undefined && req.key !== null) headers["X-Api-Key"] = req.key;
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers["Content-Type"] ??= "application/json";
  }
  // node:http would send a GET body with neither length nor chunking: the server would read it
  // as a second request. Declare the length unless the test chose the framing itself.
  const framed = Object.keys(headers).some((h) => /^(content-length|transfer-encoding)$/i.test(h));
  if (body !== undefined && !framed) headers["Content-Length"] = Buffer.byteLength(body);
  const { hostname, port } = new URL(baseUrl);
  const timeoutMs = req.timeoutMs ?? ANSWER_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { hostname, port, method: req.method ?? "GET", path: req.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, text, body: parseJson(text), headers: res.headers });
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms: ${req.method ?? "GET"} ${req.path.slice(0, 120)}`));
    }, timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}

/**
 * Writes `bytes` on a fresh TCP connection and parses the one HTTP answer (the request should ask
 * for `Connection: close`). For requests node:http refuses to send: bad request lines, raw bytes.
 */
export function sendBytes(
  baseUrl: string,
  bytes: Buffer | string,
  timeoutMs = ANSWER_TIMEOUT_MS,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no answer within ${timeoutMs} ms to raw bytes ${JSON.stringify(String(bytes).slice(0, 80))}`,
        ),
      );
    }, timeoutMs);
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed !== undefined) {
        clearTimeout(timer);
        socket.destroy();
        resolve(parsed);
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed !== undefined) resolve(parsed);
      else reject(new Error(`connection closed without an HTTP answer (${chunks.length} chunks)`));
    });
  });
}

/** A complete HTTP/1.1 answer with a Content-Length body (what the emulator sends), else undefined. */
function parseResponse(raw: Buffer): RawAnswer | undefined {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const headers: http.IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? 0);
  const bodyBytes = raw.subarray(end + 4);
  if (bodyBytes.length < length) return undefined;
  const text = bodyBytes.subarray(0, length).toString("utf8");
  return { status: Number(statusLine.split(" ")[1]), text, body: parseJson(text), headers };
}

/** The nested error body of docs/emulator.md, exactly. */
export const NestedErrorSchema = z.strictObject({
  error: z.strictObject({
    name: z.literal("Error"),
    status: z.number().int(),
    message: z.string().min(1),
    code: z.enum(ERROR_CODES),
  }),
});
export type NestedError = z.infer<typeof NestedErrorSchema>["error"];

/**
 * Asserts a 4xx with the nested error body whose `error.status` equals the HTTP status (and the
 * given status/code when asked); returns the error for further checks.
 */
export function expectClientError(answer: RawAnswer, status?: number, code?: string): NestedError {
  const where = `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (status !== undefined) expect({ status: answer.status, where }).toEqual({ status, where });
  expect({ is4xx: answer.status >= 400 && answer.status < 500, where }).toEqual({ is4xx: true, where });
  const parsed = NestedErrorSchema.safeParse(answer.body);
  expect({ nested: parsed.success, where }).toEqual({ nested: true, where });
  const error = (parsed.data as { error: NestedError }).error;
  expect(error.status).toBe(answer.status);
  if (code !== undefined) expect(error.code).toBe(code);
  return error;
}

/**
 * The state dump without the request counters (`requestCounts`, the rate limit's served and
 * refused): everything a refused request must not change.
 */
export function snapshot(baseUrl: string): Promise<unknown> {
  return stateWithoutCounts(control(baseUrl));
}

/** Builds a path with a query string from pairs (repeats allowed), each part percent-encoded. */
export function withQuery(path: string, pairs: readonly (readonly [string, string])[]): string {
  if (pairs.length === 0) return path;
  return `${path}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}`;
}
