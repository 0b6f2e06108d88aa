/**
 * A closed-loop load generator on node:http: `concurrency` clients, each with its own kept-alive
 * connection (one Agent, maxSockets = concurrency), each sending its next request as soon as the
 * previous answer has been read in full. Bounded by time and by a request count.
 */
import * as http from "node:http";

/** One request to send. */
export interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
}

/** What a run measured. */
export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Answers per status code; "error" for a failed connection. */
  statuses: Record<string, number>;
  /** Answers with a 5xx status, plus failed connections. */
  serverErrors: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Mean size of an answer body. */
  meanBodyBytes: number;
}

export interface LoadOptions {
  baseUrl: string;
  apiKey: string;
  concurrency: number;
  durationMs: number;
  /** Stop after this many requests even if time remains. */
  maxRequests?: number;
  /** The i-th request of the run. */
  next(i: number): RequestSpec;
}

/** A kept-alive connection pool for `concurrency` clients. */
export function keepAliveAgent(concurrency: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
}

/** Sends one request and reads the whole answer. */
export function send(
  agent: http.Agent,
  baseUrl: string,
  apiKey: string,
  spec: RequestSpec,
): Promise<{ status: number; body: string }> {
  const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const headers: http.OutgoingHttpHeaders = { "X-Api-Key": apiKey };
  if (payload !== undefined) {
    headers["Content-Type"] = "application/json";
    headers["Content-Length"] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(spec.path, baseUrl), { method: spec.method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** Runs the load and reports throughput, statuses and latency. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = keepAliveAgent(options.concurrency);
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let issued = 0;
  let bodyBytes = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const client = async () => {
    while (performance.now() < deadline && issued < maxRequests) {
      const spec = options.next(issued++);
      const sent = performance.now();
      const key = await send(agent, options.baseUrl, options.apiKey, spec).then(
        (res) => {
          bodyBytes += Buffer.byteLength(res.body);
          return String(res.status);
        },
        () => "error",
      );
      latencies.push(performance.now() - sent);
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const serverErrors = Object.entries(statuses)
    .filter(([status]) => status === "error" || Number(status) >= 500)
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    requests: latencies.length,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    statuses,
    serverErrors,
    latencyMs: { p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1] ?? 0 },
    meanBodyBytes: latencies.length ? bodyBytes / latencies.length : 0,
  };
}
