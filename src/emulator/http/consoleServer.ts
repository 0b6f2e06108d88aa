/**
 * The web console at `/_console/` on the emulator's own port: its page (built into
 * `dist/console/` by `npm run build`), its read-only JSON views and its live stream. No key is
 * asked for or sent: like `/_emulator/`, it is for the person running the emulator, on the
 * interface the emulator listens on (loopback by default). Its controls call the control
 * endpoints themselves (`/_emulator/*`), so they are validated there, once.
 *
 * Like the control endpoints, it answers only requests whose Host names the emulator itself
 * (localOnly.ts), so a page of another site cannot read it through DNS rebinding.
 *
 * Every answer carries a strict Content-Security-Policy: scripts and styles from this origin
 * only, no inline script, no plugin, no frame, DOM sinks only through the page's Trusted Types
 * policy (lit-html's), so even a name that slipped into markup could not run.
 */
import * as fs from "node:fs";
import type * as http from "node:http";
import * as path from "node:path";
import { ApiError, errorBody } from "../model/apiError";
import type { EmulatorContext } from "../emulatorContext";
import { consoleMachineDetail, consoleScriptText, consoleState, consoleStatus } from "./consoleState";
import { ConsoleStream } from "./consoleStream";
import { foreignHostRefusal } from "./localOnly";
import type { ConsoleSnapshot } from "./consoleTypes";
import { Router, ok, type Reply, type Route } from "./router";
import { API_ROUTES } from "./routes";

/** Where the console lives; the ready line and `npm run demo` print it. */
export const CONSOLE_PATH = "/_console/";

/** The live stream (consoleStream.ts). */
const EVENTS_PATH = "/_console/events";
/** The page's files, built by tools/consoleBuild.js; the same folder from src/ (tests) and dist/. */
const ASSETS_DIR = path.resolve(__dirname, "..", "..", "..", "dist", "console");
const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  "/_console/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/_console/console.js": { file: "console.js", type: "text/javascript; charset=utf-8" },
  "/_console/console.css": { file: "console.css", type: "text/css; charset=utf-8" },
  "/_console/favicon.svg": { file: "favicon.svg", type: "image/svg+xml" },
};

/** The policy of every console answer (see the module's comment). */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types lit-html",
].join("; ");

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

/** Whether a path belongs to the console (and never reaches the API's routes or the request log). */
export function isConsolePath(pathname: string): boolean {
  return pathname === "/_console" || pathname.startsWith(CONSOLE_PATH);
}

/** The console of one emulator. */
export class ConsoleServer {
  private readonly router: Router<EmulatorContext>;
  private readonly stream: ConsoleStream;
  /** The page's files, read once each (a few tens of KB). */
  private readonly files = new Map<string, Buffer>();
  private readonly meta = {
    routes: [...new Set(API_ROUTES.map((r) => r.template))],
    requestLogCapacity: 0,
  };

  constructor(
    private readonly emulator: EmulatorContext,
    private readonly log: (line: string) => void,
  ) {
    this.meta.requestLogCapacity = emulator.requests.capacity;
    this.stream = new ConsoleStream(emulator, this.meta);
    this.router = new Router(this.routes());
  }

  /** Answers one request under /_console. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    const started = performance.now();
    const method = req.method ?? "GET";
    // Any other path is the caller's free text: the log never shows it (it may hold a key).
    let label = "/_console/(no such page)";
    res.once("close", () => {
      this.log(`${method} ${label} ${res.statusCode} ${Math.round(performance.now() - started)}ms`);
    });
    // A body is never read here: drop whatever was sent.
    req.resume();
    try {
      const foreign = foreignHostRefusal(req, this.emulator.remoteControl);
      if (foreign !== null) throw foreign;
      if (method === "GET" && url.pathname === EVENTS_PATH) {
        label = EVENTS_PATH;
        return this.stream.attach(req, res);
      }
      const { route, params } = this.router.match(method, url.pathname);
      label = route.template;
      write(res, route.handle(this.emulator, params) as Reply);
    } catch (error) {
      const refusal =
        error instanceof ApiError
          ? error
          : new ApiError(500, "internal_error", "internal error in the console");
      if (!(error instanceof ApiError))
        this.log(`internal error: ${(error as Error).stack ?? String(error)}`);
      write(res, { status: refusal.status, body: errorBody(refusal), headers: refusal.headers });
    }
  }

  /** Ends the live streams (the server is closing). */
  close(): void {
    this.stream.close();
  }

  private routes(): Route<EmulatorContext>[] {
    const get = (template: string, handle: Route<EmulatorContext>["handle"]): Route<EmulatorContext> => ({
      method: "GET",
      template,
      handle,
    });
    return [
      get("/_console", () => ({ status: 308, headers: { Location: CONSOLE_PATH } })),
      ...Object.entries(ASSETS).map(([template, asset]) => get(template, () => this.asset(asset))),
      get("/_console/state", (emulator) => ok(this.snapshot(emulator))),
      get("/_console/machines/{machineId}", (emulator, p) =>
        ok(consoleMachineDetail(emulator.store, p.machineId)),
      ),
      get("/_console/scripts/{scriptId}/text", (emulator, p) =>
        ok(consoleScriptText(emulator.store, p.scriptId)),
      ),
    ];
  }

  /** One of the page's files; a console that was never built says how to build it. */
  private asset(asset: { file: string; type: string }): Reply {
    let content = this.files.get(asset.file);
    if (content === undefined) {
      try {
        content = fs.readFileSync(path.join(ASSETS_DIR, asset.file));
      } catch {
        const reason = `the console's page is not built: run \`npm run build\` (${asset.file} is missing)`;
        throw new ApiError(503, "service_unavailable", reason);
      }
      this.files.set(asset.file, content);
    }
    return { status: 200, body: content, headers: { "Content-Type": asset.type } };
  }

  private snapshot(emulator: EmulatorContext): ConsoleSnapshot {
    return {
      meta: this.meta,
      status: consoleStatus(emulator),
      state: consoleState(emulator.store).state,
      requests: emulator.requests.since(0),
    };
  }
}

/** Writes a reply: a file as it is, anything else as JSON. */
function write(res: http.ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...SECURITY_HEADERS, ...reply.headers };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(JSON.stringify(reply.body));
  if (!Buffer.isBuffer(reply.body)) headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = String(body.length);
  res.writeHead(reply.status, headers).end(body);
}
