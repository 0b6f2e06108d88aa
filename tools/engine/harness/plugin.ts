/**
 * Starting the dynamic-provider plugin the way the engine does, and the {@link ProviderPlugin}
 * handle that drives it.
 */
import type { ChildProcess } from "child_process";
import type * as provrpcT from "@pulumi/pulumi/proto/provider_grpc_pb";
import { LogRecorder, startEngineServer, type EngineSink } from "./engineLog";
import { check, configure, create, deleteResource, diff, read, update } from "./operations";
import { connectProvider, handshake, killGroup, readPort, spawnPlugin, stopPlugin } from "./pluginProcess";
import type { ProviderPlugin, StartOptions } from "./pluginTypes";
import { dynamicUrn } from "./serialize";
import type { Session } from "./session";

/** Everything a started plugin consists of. */
interface Started {
  child: ChildProcess;
  exited: Promise<void>;
  engine: EngineSink;
  log: LogRecorder;
  address: string;
  client: provrpcT.ResourceProviderClient;
  session: Session;
  version: string;
}

/**
 * Starts `pulumi-resource-pulumi-nodejs <engine-address>` the way the engine does, reads its port,
 * performs the engine's Handshake (UNIMPLEMENTED here) and GetPluginInfo, and returns a client.
 */
export async function startProviderPlugin(opts: StartOptions = {}): Promise<ProviderPlugin> {
  const project = opts.project ?? "project";
  const stack = opts.stack ?? "stack";
  const log = new LogRecorder();
  const engine = await startEngineServer(log.record);
  const child = spawnPlugin(opts, project, engine.address);
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const port = await readPort(child, log, opts.startTimeoutMs ?? 30_000).catch((e: unknown) => {
    killGroup(child, "SIGKILL");
    engine.server.forceShutdown();
    throw e;
  });

  const address = `127.0.0.1:${port}`;
  const { client, call } = connectProvider(address, opts.callTimeoutMs ?? 30_000);
  let info: { getVersion(): string };
  try {
    info = await handshake(call, engine.address);
  } catch (e) {
    client.close();
    killGroup(child, "SIGKILL");
    engine.server.forceShutdown();
    throw e;
  }
  const session: Session = { call, project, stack, protocol: undefined };
  return pluginHandle({ child, exited, engine, log, address, client, session, version: info.getVersion() });
}

function pluginHandle(p: Started): ProviderPlugin {
  const { session: s, log } = p;
  return {
    pid: p.child.pid!,
    address: p.address,
    engineAddress: p.engine.address,
    project: s.project,
    stack: s.stack,
    version: p.version,
    get protocol() {
      return s.protocol;
    },
    logs: log.logs,
    logEntries: log.logEntries,
    urn: (name, o = {}) => dynamicUrn(name, { ...o, project: s.project, stack: s.stack }),
    configure: (config) => configure(s, config),
    check: (urn, olds, news, o) => check(s, urn, olds, news, o),
    diff: (id, urn, olds, news, o) => diff(s, id, urn, olds, news, o),
    create: (urn, props, o) => create(s, urn, props, o),
    read: (id, urn, props, inputs) => read(s, id, urn, props, inputs),
    update: (id, urn, olds, news, o) => update(s, id, urn, olds, news, o),
    delete: (id, urn, props, o) => deleteResource(s, id, urn, props, o),
    clearLogs: () => log.clear(),
    waitForLog: (pattern, timeoutMs) => log.waitForLog(pattern, timeoutMs),
    flushLogs: (idleMs) => log.flushLogs(idleMs),
    close: () => stopPlugin(p.client, p.child, p.exited, p.engine),
  };
}
