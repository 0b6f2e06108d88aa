/**
 * The HTTP adapter: reads and limits the body, routes, applies faults, authenticates, calls the
 * route, persists, and writes JSON or the nested error body. The only place that touches
 * node:http; nothing here knows an API rule.
 */
import * as http from "node:http";
import { API_KEY_HEADER } from "../client/constants";
import { ApiError, errorBody } from "./apiError";
import { authenticate } from "./auth";
import { CONTROL_ROUTES, type ControlContext } from "./control";
import type { FaultAction } from "./faults";
import { Router, type Reply } from "./router";
import { API_ROUTES, type ApiContext } from "./routes";
import type { Runtime } from "./runtime";

/** Bodies above this are refused with 413 (scripts are 16 KB, so 1 MiB is generous). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Up to this much is read and discarded so the 413 reaches the client; beyond it the socket closes. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

/** A reply plus headers, or a fault that answers nothing. */
type Outcome =
  | { label: string; reply: Reply; headers?: Record<string, string> }
  | { label: string; cut: "reset" | "drop" };

/** Creates the HTTP server of one runtime; `log` gets one line per request (never keys or bodies). */
export function createEmulatorServer(runtime: Runtime, log: (line: string) => void): http.Server {
  const api = new Router(API_ROUTES);
  const control = new Router(CONTROL_ROUTES);
  return http.createServer((req, res) => {
    const started = performance.now();
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    const isControl = url.pathname === "/_emulator" || url.pathname.startsWith("/_emulator/");
    const work = isControl ? handleControl(runtime, control, req, url) : handleApi(runtime, api, req, url);
    void work
      .catch((error: unknown) => ({ label: url.pathname, reply: errorReply(error, log) }))
      .then((outcome) => {
        const ms = Math.round(performance.now() - started);
        if ("cut" in outcome) {
          req.socket.destroy();
          log(`${method} ${outcome.label} ${outcome.cut === "reset" ? "reset" : "dropped"} ${ms}ms`);
          return;
        }
        send(res, outcome.reply);
        log(`${method} ${outcome.label} ${outcome.reply.status} ${ms}ms`);
      });
  });
}

async function handleApi(
  runtime: Runtime,
  router: Router<ApiContext>,
  req: http.IncomingMessage,
  url: URL,
): Promise<Outcome> {
  const method = req.method ?? "GET";
  const { route, params } = router.match(method, url.pathname);
  const label = route.template;
  runtime.count(`${method} ${label}`);
  const raw = await readBody(req);
  const fault = runtime.faults.decide(method, url.pathname, label);
  if (fault !== null && fault.latencyMs > 0) await delay(fault.latencyMs);
  if (fault?.kind === "reset") return { label, cut: "reset" };
  if (fault?.kind === "status") return { label, reply: faultReply(fault) };
  let reply: Reply;
  try {
    const body = method === "GET" ? undefined : parseJsonBody(req, raw);
    const caller = authenticate(runtime.store, headerValue(req, API_KEY_HEADER));
    reply = await route.handle({ store: runtime.store, caller, query: url.searchParams, body }, params);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    reply = errorReplyOf(error);
  }
  runtime.persist();
  if (fault?.kind === "drop") return { label, cut: "drop" };
  return { label, reply };
}

async function handleControl(
  runtime: Runtime,
  router: Router<ControlContext>,
  req: http.IncomingMessage,
  url: URL,
): Promise<Outcome> {
  const method = req.method ?? "GET";
  const { route, params } = router.match(method, url.pathname);
  const raw = await readBody(req);
  const body = method === "POST" ? parseJsonBody(req, raw) : undefined;
  const reply = await route.handle({ runtime, body }, params);
  runtime.persist();
  return { label: route.template, reply };
}

/** Reads the body up to MAX_BODY_BYTES; larger bodies are drained (up to a cap) and refused with 413. */
function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const tooLarge = () =>
    new ApiError(413, "payload_too_large", `request body is larger than ${MAX_BODY_BYTES} bytes`, {
      Connection: "close",
    });
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > DRAIN_LIMIT_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) reject(tooLarge());
    });
    req.on("end", () => (size > MAX_BODY_BYTES ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    req.on("error", reject);
  });
}

/** An empty body is "no body"; anything else must be declared JSON and parse as JSON. */
function parseJsonBody(req: http.IncomingMessage, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      `Content-Type must be application/json for a request body (got ${type === "" ? "none" : JSON.stringify(type.slice(0, 100))})`,
    );
  }
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw new ApiError(400, "malformed_json", `request body is not valid JSON: ${(error as Error).message}`);
  }
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function faultReply(fault: FaultAction): Reply {
  const status = fault.status ?? 500;
  const message = `injected fault (${fault.source}): HTTP ${status}`;
  const headers: Record<string, string> =
    fault.retryAfterSeconds !== undefined ? { "Retry-After": String(fault.retryAfterSeconds) } : {};
  return errorReplyOf(new ApiError(status, fault.code ?? "internal_error", message, headers));
}

function errorReplyOf(error: ApiError): Reply {
  return { status: error.status, body: errorBody(error), headers: error.headers };
}

/** Any failure as a reply: ApiErrors as they are, anything else 500 (logged) while the server runs on. */
function errorReply(error: unknown, log: (line: string) => void): Reply {
  if (error instanceof ApiError) return errorReplyOf(error);
  log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return errorReplyOf(new ApiError(500, "internal_error", "internal error in the emulator"));
}

function send(res: http.ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const all = { ...reply.headers };
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, all).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res
    .writeHead(reply.status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(text)),
      ...all,
    })
    .end(text);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
