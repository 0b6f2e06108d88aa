/**
 * The plugin's output as the engine sees it: an Engine gRPC sink for `Engine.Log` RPCs, and the
 * recorder that collects those entries together with the lines the plugin prints.
 */
import type * as engrpcT from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as grpcT from "@grpc/grpc-js";
import { emptyproto, engproto, engrpc, grpc } from "./sdk";

/** One line of plugin output or one Engine.Log message. */
export interface LogEntry {
  /** stdout/stderr: lines the plugin printed (the engine shows them as diagnostics); engine: Engine.Log RPCs. */
  source: "stdout" | "stderr" | "engine";
  message: string;
  severity?: "debug" | "info" | "warning" | "error";
  urn?: string;
}

const SEVERITIES = ["debug", "info", "warning", "error"] as const;

/** The Engine gRPC server the plugin is started against. */
export interface EngineSink {
  address: string;
  server: grpcT.Server;
}

/** Serves the Engine service on a loopback port: Log goes to `onLog`, the root resource is remembered. */
export async function startEngineServer(onLog: (e: LogEntry) => void): Promise<EngineSink> {
  const server = new grpc.Server();
  let rootUrn = "";
  const impl: engrpcT.IEngineServer = {
    log(call, cb) {
      const r = call.request;
      onLog({
        source: "engine",
        severity: SEVERITIES[r.getSeverity()] ?? "info",
        message: r.getMessage(),
        urn: r.getUrn() || undefined,
      });
      cb(null, new emptyproto.Empty());
    },
    getRootResource(_call, cb) {
      cb(null, new engproto.GetRootResourceResponse().setUrn(rootUrn));
    },
    setRootResource(call, cb) {
      rootUrn = call.request.getUrn();
      cb(null, new engproto.SetRootResourceResponse());
    },
    startDebugging(_call, cb) {
      cb({ code: grpc.status.UNIMPLEMENTED, details: "no debugger in the harness" }, null);
    },
    requirePulumiVersion(_call, cb) {
      cb(null, new engproto.RequirePulumiVersionResponse());
    },
  };
  server.addService(engrpc.EngineService, impl);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, server };
}

/** Collects plugin output and Engine.Log messages, and lets callers wait for a line. */
export class LogRecorder {
  /** Every line the plugin printed and every Engine.Log message, as text. */
  readonly logs: string[] = [];
  readonly logEntries: LogEntry[] = [];
  private readonly waiters = new Set<() => void>();
  private lastOutputAt = Date.now();

  /** Adds an entry and wakes the waiters (a bound arrow, so it can be handed out as a callback). */
  readonly record = (e: LogEntry): void => {
    this.logEntries.push(e);
    this.logs.push(e.source === "engine" ? `${e.severity}: ${e.message}` : e.message);
    this.lastOutputAt = Date.now();
    for (const w of [...this.waiters]) w();
  };

  clear(): void {
    this.logs.length = 0;
    this.logEntries.length = 0;
  }

  /** Resolves with the first log line matching `pattern` (already seen or arriving within `timeoutMs`). */
  waitForLog(pattern: string | RegExp, timeoutMs = 2_000): Promise<string> {
    const logs = this.logs;
    const waiters = this.waiters;
    const matches = (l: string): boolean =>
      typeof pattern === "string" ? l.includes(pattern) : pattern.test(l);
    const found = logs.find(matches);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<string>((resolve, reject) => {
      const check = (): void => {
        const hit = logs.find(matches);
        if (hit === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `no log line matching ${String(pattern)} within ${timeoutMs} ms; logs:\n${logs.join("\n")}`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
    });
  }

  /** Waits until the plugin has been quiet for `idleMs` (max 2 s), so output of finished calls is in `logs`. */
  async flushLogs(idleMs = 30): Promise<void> {
    const deadline = Date.now() + 2_000;
    await new Promise((r) => setImmediate(r));
    while (Date.now() - this.lastOutputAt < idleMs && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, idleMs));
    }
  }
}
