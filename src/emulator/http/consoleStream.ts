/**
 * The console's live updates (`GET /_console/events`): server-sent events, pushed on a tick
 * while at least one page is connected, and only what changed since that page's last event.
 *
 * Built to cost the API nothing a user would notice: one timer for all pages, none when no page
 * is open; the small `status` is built once per tick; the `state` (every record) is rebuilt only
 * when a request that may have written finished (any method but GET), a machine's timed state
 * ended, or MAX_STATE_AGE_MS passed, and is shared by every page; a page is sent at most
 * REQUESTS_PER_TICK new requests per tick, and nothing while it has not read what it was sent.
 * The timer only reads: a read advances lifecycles as any API read does, and nothing else.
 */
import type * as http from "node:http";
import type { EmulatorContext } from "../emulatorContext";
import { consoleState, consoleStatus } from "./consoleState";
import type { ConsoleEvents, ConsoleMeta } from "./consoleTypes";

/** How often the pages are updated. */
export const TICK_MS = 500;
/** The most requests one tick sends a page (a busy emulator serves thousands a second). */
export const REQUESTS_PER_TICK = 100;
/** Even with no write seen, the state is rebuilt this often (a change made in-process, not over HTTP). */
const MAX_STATE_AGE_MS = 5_000;
/** A page that has this much unread is skipped until it catches up: memory stays bounded. */
const MAX_UNREAD_BYTES = 1 << 20;

interface Page {
  res: http.ServerResponse;
  status: string;
  state: string;
  /** The seq of the last request sent to this page. */
  seq: number;
}

/** The live stream of every open console page. */
export class ConsoleStream {
  private readonly pages = new Set<Page>();
  private timer: NodeJS.Timeout | undefined;
  private state = { json: "", seq: 0, nextChangeAt: Number.NEGATIVE_INFINITY, builtAt: 0 };

  constructor(
    private readonly emulator: EmulatorContext,
    private readonly meta: ConsoleMeta,
  ) {}

  /** Takes over `res` as an event stream until the page goes away or the server closes. */
  attach(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
    const page: Page = { res, status: "", state: "", seq: 0 };
    send(page, "meta", this.meta);
    this.update(page, JSON.stringify(consoleStatus(this.emulator)), this.stateJson(), true);
    this.pages.add(page);
    req.socket.setNoDelay(true);
    res.once("close", () => {
      this.pages.delete(page);
      if (this.pages.size === 0) this.stop();
    });
    this.timer ??= setInterval(() => this.tick(), TICK_MS).unref();
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    this.stop();
    for (const page of this.pages) page.res.end();
    this.pages.clear();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const status = JSON.stringify(consoleStatus(this.emulator));
    const state = this.stateJson();
    for (const page of this.pages) this.update(page, status, state, false);
  }

  /** Sends `page` what changed since its last event; everything kept on its first. */
  private update(page: Page, status: string, state: string, first: boolean): void {
    if (page.res.writableLength > MAX_UNREAD_BYTES) return;
    if (status !== page.status) sendJson(page, "status", (page.status = status));
    if (state !== page.state) sendJson(page, "state", (page.state = state));
    const fresh = this.emulator.requests.since(page.seq);
    if (fresh.length === 0) return;
    page.seq = fresh[fresh.length - 1].seq;
    send(page, "requests", first ? fresh : fresh.slice(-REQUESTS_PER_TICK));
  }

  /** The state's JSON, rebuilt only when it may have changed. */
  private stateJson(): string {
    const log = this.emulator.requests;
    const now = this.emulator.clock.now();
    const seen = this.state.seq;
    const missed = seen < log.nextSeq - 1 - log.capacity;
    const wrote = missed || log.since(seen).some((r) => r.method !== "GET");
    const aged = performance.now() - this.state.builtAt >= MAX_STATE_AGE_MS;
    if (!wrote && !aged && now < this.state.nextChangeAt && this.state.json !== "") return this.state.json;
    const { state, nextChangeAt } = consoleState(this.emulator.store);
    this.state = {
      json: JSON.stringify(state),
      seq: log.nextSeq - 1,
      nextChangeAt,
      builtAt: performance.now(),
    };
    return this.state.json;
  }
}

function send<K extends keyof ConsoleEvents>(page: Page, event: K, data: ConsoleEvents[K]): void {
  sendJson(page, event, JSON.stringify(data));
}

/** One event; JSON holds no raw line break, so one `data:` line carries it. */
function sendJson(page: Page, event: keyof ConsoleEvents, json: string): void {
  page.res.write(`event: ${event}\ndata: ${json}\n\n`);
}
