/**
 * The HTTP adapter: routes, reads and limits the body, throttles per API key, applies faults,
 * authenticates, parses the
 * body (JSON, or a multipart upload where a route takes one), calls the route, persists, and
 * writes JSON or the nested error body. The only place that touches node:http; nothing here
 * knows an API rule.
 */
import * as http from "node:http";
import type { Duplex } from "node:stream";
import { API_KEY_HEADER } from "../../contract/constants";
import { ApiError, errorBody } from "../model/apiError";
import { authenticate, callerLabel } from "../model/auth";
import { CONTROL_ROUTES } from "./control";
import type { ControlContext } from "./controlTypes";
import type { FaultAction } from "../traffic/faults";
import { loggablePath, routeWords } from "../logPath";
import { Router, type Reply } from "./router";
import { API_ROUTES, type ApiContext } from "./routes";
import { parseBody, readBody } from "./requestBody";
import type { EmulatorContext } from "../emulatorContext";
import { ConsoleServer, isConsolePath } from "./consoleServer";
import { foreignHostRefusal, formPostRefusal } from "./localOnly";
import type { RequestRecord } from "../traffic/requestLog";

/** What the request log keeps of a request beyond its line: who called, what answered it. */
type Note = Partial<Pick<RequestRecord, "caller" | "mark" | "faultSource">>;

/**
 * A reply (`injected`: a fault's), or a fault that answers nothing; `note` for the request log.
 */
type Outcome = (
  { label: string; reply: Reply; injected?: boolean } | { label: string; cut: "reset" | "drop" }
) & {
  note?: Note;
};

/** One answer as it went on the wire, for a test that holds answers to api/openapi.json. */
export interface SentAnswer {
  method: string;
  /** The request target: path and query string. */
  target: string;
  status: number;
  /** The body as sent; empty for none. */
  text: string;
  /** Answered by an injected fault (a rule's status or a random one), not by the API's rules. */
  injected: boolean;
}

/**
 * Creates the HTTP server of one emulator; `log` gets one line per request (never keys or bodies),
 * `observe` (tests only) every answer the request handler sends.
 */
export function createEmulatorServer(
  emulator: EmulatorContext,
  log: (line: string) => void,
  observe?: (answer: SentAnswer) => void,
): http.Server {
  const api = new Router(API_ROUTES);
  const control = new Router(CONTROL_ROUTES);
  const words = routeWords([...API_ROUTES, ...CONTROL_ROUTES].map((r) => r.template));
  const isSecret = (segment: string) => emulator.store.keyOwner(segment) !== undefined;
  // A known route (any method) logs as its template; any other path only in a sanitized form.
  const logLabel = (pathname: string) =>
    api.templateOf(pathname) ?? control.templateOf(pathname) ?? loggablePath(pathname, words, isSecret);
  // The request each socket is busy with: its handler answers (and logs) even a late parse error.
  const inFlight = new WeakMap<Duplex, http.IncomingMessage>();
  // A request held by a fault's latency ends with the server: it neither acts on a closed
  // emulator (after its state file was flushed) nor keeps the process alive with its timer.
  const stopped = new AbortController();
  // The web console (/_console/): its own pages and live updates, outside the request log.
  const consoleServer = new ConsoleServer(emulator, log);
  // The Host rule is checked in requestUrl, so that its refusal carries the nested error body too.
  const server = http.createServer({ requireHostHeader: false }, (req, res) => {
    const url = requestUrl(req);
    if (url instanceof URL && isConsolePath(url.pathname)) return consoleServer.handle(req, res, url);
    inFlight.set(req.socket, req);
    const started = performance.now();
    const method = req.method ?? "GET";
    const isControl = url instanceof URL && /^\/_emulator(\/|$)/.test(url.pathname);
    const label = url instanceof URL ? logLabel(url.pathname) : "(invalid target)";
    const work = !(url instanceof URL)
      ? Promise.reject(url)
      : isControl
        ? handleControl(emulator, control, req, url)
        : handleApi(emulator, api, req, url, stopped.signal);
    void work
      .catch((error: unknown): Outcome => ({ label, reply: errorReply(error, log) }))
      .then((outcome) => {
        if (inFlight.get(req.socket) === req) inFlight.delete(req.socket);
        const ms = Math.round(performance.now() - started);
        const status =
          "cut" in outcome ? (outcome.cut === "reset" ? "reset" : "dropped") : outcome.reply.status;
        emulator.requests.record({ method, route: outcome.label, status, ms, caller: null, ...outcome.note });
        if ("cut" in outcome) {
          req.socket.destroy();
          log(`${method} ${outcome.label} ${status} ${ms}ms`);
          return;
        }
        const text = send(res, outcome.reply);
        log(`${method} ${outcome.label} ${status} ${ms}ms`);
        if (text !== undefined)
          observe?.({
            method,
            target: req.url ?? "",
            status: outcome.reply.status,
            text,
            injected: outcome.injected === true,
          });
      });
  });
  answerBeyondTheHandler(server, inFlight, log);
  server.once("close", () => {
    stopped.abort();
    consoleServer.close();
  });
  return server;
}

/**
 * Requests that never reach the request handler still get the nested error body: ones node:http
 * cannot parse, and CONNECT (which node:http would otherwise drop without a word).
 */
function answerBeyondTheHandler(
  server: http.Server,
  inFlight: WeakMap<Duplex, http.IncomingMessage>,
  log: (line: string) => void,
): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const busy = inFlight.get(socket);
    if (busy !== undefined && busy.listenerCount("error") > 0) {
      // e.g. a bad chunk after valid headers: the body read fails and the handler answers.
      busy.emit("error", unparsable(error));
      return;
    }
    if (busy !== undefined || error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = unparsable(error);
    writeRaw(socket, refusal);
    log(`- (unparsable request) ${refusal.status} 0ms`);
  });
  server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => {
    writeRaw(
      socket,
      new ApiError(405, "method_not_allowed", "CONNECT is not supported: this is not a proxy"),
    );
    log("CONNECT (proxy request) 405 0ms");
  });
}

/** The request target as a URL, or why there is none (e.g. `GET http://[ HTTP/1.1`, no Host). */
function requestUrl(req: http.IncomingMessage): URL | ApiError {
  if (req.httpVersion === "1.1" && req.headers.host === undefined) {
    return new ApiError(400, "validation_failed", "the Host header is required in HTTP/1.1");
  }
  try {
    return new URL(req.url ?? "/", "http://emulator.invalid");
  } catch {
    return new ApiError(400, "validation_failed", "the request target is not a valid URL");
  }
}

/**
 * The refusal of a request node:http cannot parse (bad request line or header, headers over
 * 16 KB, bad chunked encoding); the connection cannot carry another request after it.
 */
function unparsable(error: NodeJS.ErrnoException): ApiError {
  const close = { Connection: "close" };
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return new ApiError(431, "payload_too_large", "request line and headers are larger than 16 KB", close);
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return new ApiError(408, "validation_failed", "the request was not received in time", close);
  }
  const reason = `malformed HTTP request (${error.code ?? "parse error"})`;
  return new ApiError(400, "validation_failed", reason, close);
}

/** Writes a complete error answer on a socket that has no ServerResponse, then closes it. */
function writeRaw(socket: Duplex, error: ApiError): void {
  const text = JSON.stringify(errorBody(error));
  socket.end(
    `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status] ?? "Error"}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

async function handleApi(
  emulator: EmulatorContext,
  router: Router<ApiContext>,
  req: http.IncomingMessage,
  url: URL,
  stopped: AbortSignal,
): Promise<Outcome> {
  const method = req.method ?? "GET";
  const { route, params } = router.match(method, url.pathname);
  const label = route.template;
  emulator.count(`${method} ${label}`);
  const raw = await readBody(req).catch((error: unknown) => {
    throw callerFirst(emulator, req, error);
  });
  // The limiter stands before everything else of the API, as a gateway does: a throttled
  // request is not handled, so it changes nothing and consumes no fault rule.
  const caller = callerLabel(emulator.store, headerValue(req, API_KEY_HEADER));
  const throttled = emulator.rateLimits.admit(caller, emulator.clock.now());
  if (throttled !== null)
    return { label, reply: errorReplyOf(throttled), note: { caller, mark: "throttled" } };
  const fault = emulator.faults.decide(method, url.pathname, label);
  const note: Note = fault === null ? { caller } : { caller, mark: "fault", faultSource: fault.source };
  const cutAfterMs = fault?.cutAfterMs;
  const cut =
    cutAfterMs === undefined
      ? undefined
      : setTimeout(() => req.socket.destroy(), cutAfterMs * emulator.store.timeScale).unref();
  try {
    return { ...(await answerApi(emulator, { route, params, req, url, raw, fault, label, stopped })), note };
  } finally {
    // Answered before the cut: the connection lives on for the requests after this one.
    clearTimeout(cut);
  }
}

/** One API request after its body was read and its fault (if any) decided. */
interface ApiRequest {
  route: ReturnType<Router<ApiContext>["match"]>["route"];
  params: ReturnType<Router<ApiContext>["match"]>["params"];
  req: http.IncomingMessage;
  url: URL;
  raw: Awaited<ReturnType<typeof readBody>>;
  fault: FaultAction | null;
  label: string;
  /** Aborted when the server closes. */
  stopped: AbortSignal;
}

async function answerApi(emulator: EmulatorContext, request: ApiRequest): Promise<Outcome> {
  const { route, params, req, url, raw, fault, label, stopped } = request;
  const method = req.method ?? "GET";
  if (fault?.hold) await unlessStopped(emulator.faults.hold({ method, route: label }), stopped);
  // Latency is a duration like any other: `--time-scale 0.01` makes a 35 s late answer take 350 ms,
  // so a test of an answer later than the client's timeout costs no real seconds.
  if (fault !== null && fault.latencyMs > 0) await delay(fault.latencyMs * emulator.store.timeScale, stopped);
  if (fault?.kind === "reset") return { label, cut: "reset" };
  if (fault?.kind === "status")
    return { label, reply: faultReply(fault, emulator.store.timeScale), injected: true };
  let reply: Reply;
  try {
    // Who is calling comes first: a caller without a valid key learns nothing about body rules.
    const caller = authenticate(emulator.store, headerValue(req, API_KEY_HEADER));
    const input = method === "GET" ? {} : await parseBody(req, raw, route.multipart === true);
    reply = await route.handle({ store: emulator.store, caller, query: url.searchParams, ...input }, params);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    reply = errorReplyOf(error);
  }
  emulator.persist();
  if (fault?.kind === "drop") return { label, cut: "drop" };
  return { label, reply };
}

/**
 * A body that could not be read (too large, cut off) is refused only once the caller is known:
 * without a valid key the answer is 401, keeping the body error's `Connection: close`.
 */
function callerFirst(emulator: EmulatorContext, req: http.IncomingMessage, error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  try {
    authenticate(emulator.store, headerValue(req, API_KEY_HEADER));
    return error;
  } catch (denied) {
    if (!(denied instanceof ApiError)) return error;
    return new ApiError(denied.status, denied.code, denied.message, { ...error.headers, ...denied.headers });
  }
}

async function handleControl(
  emulator: EmulatorContext,
  router: Router<ControlContext>,
  req: http.IncomingMessage,
  url: URL,
): Promise<Outcome> {
  const method = req.method ?? "GET";
  // Other sites are kept out before anything else (localOnly.ts).
  const foreign = foreignHostRefusal(req, emulator.remoteControl);
  if (foreign !== null) throw foreign;
  const { route, params } = router.match(method, url.pathname);
  const formPost = formPostRefusal(req);
  if (formPost !== null) throw formPost;
  const raw = await readBody(req);
  const body = method === "POST" ? (await parseBody(req, raw, false)).body : undefined;
  const reply = await route.handle({ emulator, body }, params);
  emulator.persist();
  return { label: route.template, reply, note: { caller: "control" } };
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A fault's answer. Its `Retry-After` is the API's time, like a lifecycle step: an emulator whose
 * time is scaled also says it in scaled milliseconds (`retry-after-ms`, which the client and
 * Stainless clients read first), so a seeded 429 holds a test for 2 ms, not a second. At scale 1
 * (the default, as the service) only `Retry-After` is sent.
 */
function faultReply(fault: FaultAction, timeScale: number): Reply {
  const status = fault.status ?? 500;
  const message = `injected fault (${fault.source}): HTTP ${status}`;
  const seconds = fault.retryAfterSeconds;
  const headers: Record<string, string> = {};
  if (seconds !== undefined) headers["Retry-After"] = String(seconds);
  if (seconds !== undefined && timeScale !== 1)
    headers["retry-after-ms"] = String(Math.round(seconds * 1000 * timeScale));
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

/** Writes the reply; returns the body text sent ("" for none), or undefined when nothing could be. */
function send(res: http.ServerResponse, reply: Reply): string | undefined {
  if (res.headersSent || res.destroyed) return undefined;
  const all = { ...reply.headers };
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, all).end();
    return "";
  }
  const text = JSON.stringify(reply.body);
  res
    .writeHead(reply.status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(text)),
      ...all,
    })
    .end(text);
  return text;
}

/** Resolves with `released`; never, once `stopped` aborts (a release after the close acts on nothing). */
function unlessStopped(released: Promise<void>, stopped: AbortSignal): Promise<void> {
  return released.then(() => (stopped.aborted ? new Promise<void>(() => undefined) : undefined));
}

/** Resolves after `ms`; never, once `stopped` aborts (the request is not answered: the server is gone). */
function delay(ms: number, stopped: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stopped.aborted) return;
    const timer = setTimeout(() => {
      stopped.removeEventListener("abort", cancel);
      resolve();
    }, ms);
    const cancel = () => clearTimeout(timer);
    stopped.addEventListener("abort", cancel, { once: true });
  });
}
