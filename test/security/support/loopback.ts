/**
 * A tiny HTTP server on loopback that answers whatever the test says, for responses the emulator
 * never sends (drifted shapes, extra fields). Records each request's method, path and headers.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One canned answer: JSON `body`, or `raw` text sent as is. */
export interface Canned {
  status: number;
  body?: unknown;
  raw?: string;
}

/** What the server saw. */
export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A running loopback server; set `answer` before each call. */
export interface Loopback {
  url: string;
  seen: Seen[];
  answer: (seen: Seen) => Canned;
  close(): Promise<void>;
}

/** Starts a loopback server on a free port. */
export async function startLoopback(): Promise<Loopback> {
  const state: Omit<Loopback, "close"> & { server?: Server } = {
    url: "",
    seen: [],
    answer: () => ({ status: 500, raw: "no answer set" }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: Seen = {
        method: req.method ?? "GET",
        path: (req.url ?? "/").split("?")[0],
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      state.seen.push(seen);
      const canned = state.answer(seen);
      const text = canned.raw ?? (canned.body === undefined ? "" : JSON.stringify(canned.body));
      res.writeHead(canned.status, text ? { "Content-Type": "application/json" } : {});
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}
