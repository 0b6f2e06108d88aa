/**
 * The plugin process and its gRPC client: started, handshaken and stopped the way the engine does
 * (sdk/go/common/resource/plugin/plugin.go, provider_plugin.go).
 */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";
import type * as grpcT from "@grpc/grpc-js";
import type * as provrpcT from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as emptyprotoT from "google-protobuf/google/protobuf/empty_pb";
import type { EngineSink, LogRecorder } from "./engineLog";
import type { StartOptions } from "./pluginTypes";
import { PLUGIN_PATH, REPO_ROOT, emptyproto, grpc, provproto, provrpc } from "./sdk";

/** One unary RPC to the plugin, with the harness's per-call deadline. */
export type ProviderCall = <Req, Res>(
  name: keyof provrpcT.ResourceProviderClient & string,
  req: Req,
) => Promise<Res>;

type UnaryMethod<Req, Res> = (
  req: Req,
  md: grpcT.Metadata,
  opts: Partial<grpcT.CallOptions>,
  cb: (err: grpcT.ServiceError | null, res: Res) => void,
) => grpcT.ClientUnaryCall;

/** This process's environment as the engine passes it to a provider plugin. */
function pluginEnv(opts: StartOptions, project: string, engineAddress: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Keep the inherited environment deterministic: these are set by the language host for programs,
  // never by the engine for provider plugins.
  for (const k of [
    "PULUMI_NODEJS_ENGINE",
    "PULUMI_NODEJS_MONITOR",
    "PULUMI_NODEJS_DRY_RUN",
    "PULUMI_CONFIG",
  ]) {
    delete env[k];
  }
  env.PULUMI_NODEJS_PROJECT = project; // NewProvider: set for the pulumi-nodejs package
  env.PULUMI_PROJECT = project;
  if (opts.structuredLogs) env.PULUMI_NODEJS_ENGINE = engineAddress;
  Object.assign(env, opts.env ?? {});
  return env;
}

/** Starts `pulumi-resource-pulumi-nodejs <engine-address>` the way the engine does. */
export function spawnPlugin(opts: StartOptions, project: string, engineAddress: string): ChildProcess {
  return spawn(PLUGIN_PATH, [engineAddress], {
    cwd: opts.cwd ?? REPO_ROOT,
    env: pluginEnv(opts, project, engineAddress),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group: the script runs `node` as a child of `sh`
  });
}

/** Splits a stream into lines (line endings removed) and hands each to `onLine`. */
function lineReader(onLine: (line: string) => void): (chunk: Buffer) => void {
  let buf = "";
  return (chunk: Buffer): void => {
    buf += chunk.toString("utf8");
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      onLine(line);
    }
  };
}

/** Resolves with the port the plugin prints first on stdout; every other non-blank line is recorded. */
export function readPort(child: ChildProcess, log: LogRecorder, startTimeoutMs: number): Promise<number> {
  const { logs, record } = log;
  return new Promise<number>((resolve, reject) => {
    let portSeen = false;
    const timer = setTimeout(
      () =>
        reject(new Error(`plugin did not print its port within ${startTimeoutMs} ms:\n${logs.join("\n")}`)),
      startTimeoutMs,
    );
    const onLine = (source: "stdout" | "stderr") => (line: string) => {
      if (source === "stdout" && !portSeen && /^\d+$/.test(line.trim())) {
        // The first stdout line is the port (plugin.go reads it the same way).
        portSeen = true;
        clearTimeout(timer);
        resolve(Number(line.trim()));
        return;
      }
      if (line.trim() !== "") record({ source, message: line });
    };
    child.stdout!.on("data", lineReader(onLine("stdout")));
    child.stderr!.on("data", lineReader(onLine("stderr")));
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("exit", (code, sig) => {
      clearTimeout(timer);
      if (!portSeen)
        reject(new Error(`plugin exited (${code ?? sig}) before printing its port:\n${logs.join("\n")}`));
    });
  });
}

/** A client for the plugin listening on `address`, and the unary call through it. */
export function connectProvider(
  address: string,
  callTimeoutMs: number,
): { client: provrpcT.ResourceProviderClient; call: ProviderCall } {
  const client = new provrpc.ResourceProviderClient(address, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
  });

  const call = <Req, Res>(name: keyof provrpcT.ResourceProviderClient & string, req: Req): Promise<Res> =>
    new Promise<Res>((resolve, reject) => {
      const fn = (client[name] as unknown as UnaryMethod<Req, Res>).bind(client);
      fn(req, new grpc.Metadata(), { deadline: Date.now() + callTimeoutMs }, (err, res) =>
        err ? reject(err) : resolve(res),
      );
    });
  return { client, call };
}

/**
 * Engine startup sequence: Handshake (the dynamic provider answers UNIMPLEMENTED, and the engine
 * falls back to the Configure response), then GetPluginInfo, whose answer this resolves with.
 */
export async function handshake(
  call: ProviderCall,
  engineAddress: string,
): Promise<{ getVersion(): string }> {
  const hs = new provproto.ProviderHandshakeRequest()
    .setEngineAddress(engineAddress)
    .setRootDirectory(path.dirname(PLUGIN_PATH))
    .setProgramDirectory(path.dirname(PLUGIN_PATH))
    .setConfigureWithUrn(true)
    .setSupportsViews(true)
    .setSupportsRefreshBeforeUpdate(true);
  await call("handshake", hs).catch((e: grpcT.ServiceError) => {
    if (e.code !== grpc.status.UNIMPLEMENTED) throw e;
  });
  return call<emptyprotoT.Empty, { getVersion(): string }>("getPluginInfo", new emptyproto.Empty());
}

/** Closes the client, stops the plugin's process group, then shuts the engine sink down. */
export async function stopPlugin(
  client: provrpcT.ResourceProviderClient,
  child: ChildProcess,
  exited: Promise<void>,
  engine: EngineSink,
): Promise<void> {
  client.close();
  if (child.exitCode === null && child.signalCode === null) {
    killGroup(child, "SIGTERM");
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), 2_000);
    await exited;
    clearTimeout(timer);
  }
  await new Promise<void>((resolve) => engine.server.tryShutdown(() => resolve()));
}

/** Signals the plugin's process group (the `sh` wrapper and its `node`), which this harness started. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
