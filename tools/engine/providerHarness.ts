/**
 * Provider harness: drives `pulumi.dynamic` providers through the real dynamic-provider plugin
 * (`node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs`) over gRPC, the way the Pulumi engine
 * does, without the `pulumi` CLI. See docs/harness.md for what is and is not reproduced.
 *
 * Engine behaviour mirrored here was read from the Go engine (sdk/go/common/resource/plugin/
 * provider_plugin.go, rpc.go; pkg/resource/deploy/target.go) and the Node SDK in node_modules
 * (dynamic/index.js, cmd/dynamic-provider/index.js, runtime/rpc.js).
 */
import { spawn, type ChildProcess } from "child_process";
import { randomBytes, randomUUID } from "crypto";
import { createRequire } from "module";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type * as grpcT from "@grpc/grpc-js";
import type * as provprotoT from "@pulumi/pulumi/proto/provider_pb";
import type * as provrpcT from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as engprotoT from "@pulumi/pulumi/proto/engine_pb";
import type * as engrpcT from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as statusprotoT from "@pulumi/pulumi/proto/status_pb";
import type * as structprotoT from "google-protobuf/google/protobuf/struct_pb";
import type * as emptyprotoT from "google-protobuf/google/protobuf/empty_pb";

// gRPC and the generated stubs are loaded from the SDK's own location (plain Node require, outside
// jest's module registry) so client, stubs and google-protobuf are the same copies the plugin uses.
const SDK_ROOT = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const sdkRequire = createRequire(path.join(SDK_ROOT, "package.json"));
const grpc: typeof grpcT = sdkRequire("@grpc/grpc-js");
const provproto: typeof provprotoT = sdkRequire("./proto/provider_pb");
const provrpc: typeof provrpcT = sdkRequire("./proto/provider_grpc_pb");
const engproto: typeof engprotoT = sdkRequire("./proto/engine_pb");
const engrpc: typeof engrpcT = sdkRequire("./proto/engine_grpc_pb");
const statusproto: typeof statusprotoT = sdkRequire("./proto/status_pb");
const structproto: typeof structprotoT = sdkRequire("google-protobuf/google/protobuf/struct_pb");
const emptyproto: typeof emptyprotoT = sdkRequire("google-protobuf/google/protobuf/empty_pb");

/** The plugin binary the engine launches for `pulumi-nodejs:dynamic:*` resources. */
export const PLUGIN_PATH = path.join(SDK_ROOT, "pulumi-resource-pulumi-nodejs");
/** Repository root: where `@pulumi/pulumi` resolves, so the plugin can `require` it. */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");
/** The key under which `dynamic.Resource` stores the serialized provider in inputs and outputs. */
export const PROVIDER_KEY = "__provider";

// ---------------------------------------------------------------------------------------------
// Property values
// ---------------------------------------------------------------------------------------------

/** A value the engine holds as secret. Build with {@link secret}; test with {@link isSecret}. */
export class Secret {
  constructor(public readonly value: PropValue) {}
}

/** The engine's "unknown" (computed) value; only meaningful in preview operations. */
export const UNKNOWN: unique symbol = Symbol("UNKNOWN");

export type PropValue = null | boolean | number | string | PropValue[] | Props | Secret | typeof UNKNOWN;
export interface Props {
  [key: string]: PropValue;
}

export const secret = (value: PropValue): Secret => new Secret(value);
export const isSecret = (v: unknown): v is Secret => v instanceof Secret;

/** Deep copy with every secret marker removed (the plain values the provider code sees). */
export function reveal(v: PropValue): PropValue {
  if (v instanceof Secret) return reveal(v.value);
  if (Array.isArray(v)) return v.map(reveal);
  if (isPropObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reveal(x)]));
  return v;
}

/** True if the value is, or contains, a secret (Go `PropertyValue.ContainsSecrets`). */
export function containsSecrets(v: PropValue): boolean {
  if (v instanceof Secret) return true;
  if (Array.isArray(v)) return v.some(containsSecrets);
  if (isPropObject(v)) return Object.values(v).some(containsSecrets);
  return false;
}

function containsUnknowns(v: PropValue): boolean {
  if (v === UNKNOWN) return true;
  if (v instanceof Secret) return containsUnknowns(v.value);
  if (Array.isArray(v)) return v.some(containsUnknowns);
  if (isPropObject(v)) return Object.values(v).some(containsUnknowns);
  return false;
}

/** Deep copy that keeps {@link Secret} and {@link UNKNOWN} markers. */
export function cloneProps(p: Props): Props {
  const clone = (v: PropValue): PropValue =>
    v instanceof Secret
      ? new Secret(clone(v.value))
      : Array.isArray(v)
        ? v.map(clone)
        : isPropObject(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]))
          : v;
  return clone(p) as Props;
}

function isPropObject(v: unknown): v is Props {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Secret);
}

/** A mistake in how the harness is used (not something the engine or plugin did). */
export class HarnessUsageError extends Error {
  override name = "HarnessUsageError";
}

// Wire constants, taken from the SDK rather than restated.
const SIG_KEY: string = pulumi.runtime.specialSigKey;
const SECRET_SIG: string = pulumi.runtime.specialSecretSig;
const UNKNOWN_STRING: string = pulumi.runtime.unknownValue;
// Go rpc.go: all typed unknown sentinels are recognised when unmarshaling.
const UNKNOWN_SENTINELS = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  UNKNOWN_STRING,
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface MarshalOpts {
  keepSecrets: boolean;
  keepUnknowns: boolean;
}
interface UnmarshalOpts {
  keepUnknowns: boolean;
  rejectUnknowns: boolean;
}
const SKIP = Symbol("skip");

/** Go `MarshalPropertyValue` (subset: no assets, resources, output values). */
function marshalValue(v: PropValue, opts: MarshalOpts, where: string): Json | typeof SKIP {
  if (v === undefined) return SKIP;
  if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return v;
  if (v === UNKNOWN) return opts.keepUnknowns ? UNKNOWN_STRING : SKIP;
  if (v instanceof Secret) {
    const inner = marshalValue(v.value, opts, where);
    if (!opts.keepSecrets || inner === SKIP) return inner;
    return { [SIG_KEY]: SECRET_SIG, value: inner };
  }
  if (Array.isArray(v)) {
    const out: Json[] = [];
    v.forEach((e, i) => {
      const m = marshalValue(e, opts, `${where}[${i}]`);
      if (m !== SKIP) out.push(m);
    });
    return out;
  }
  if (isPropObject(v) && Object.getPrototypeOf(v) === Object.prototype) {
    return marshalProps(v, opts, where);
  }
  throw new HarnessUsageError(`${where}: not a property value: ${String(v)} (${typeof v})`);
}

function marshalProps(props: Props, opts: MarshalOpts, where: string): { [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const key of Object.keys(props).sort()) {
    const m = marshalValue(props[key], opts, `${where}.${key}`);
    if (m !== SKIP) out[key] = m;
  }
  return out;
}

function toStruct(props: Props, opts: MarshalOpts, where: string): structprotoT.Struct {
  return structproto.Struct.fromJavaScript(marshalProps(props, opts, where));
}

/** Go `UnmarshalPropertyValue`: sentinels become UNKNOWN, secret-signature objects become Secret. */
function unmarshalValue(v: unknown, opts: UnmarshalOpts, where: string): PropValue | typeof SKIP {
  if (v === null || typeof v === "boolean" || typeof v === "number") return v;
  if (typeof v === "string") {
    if (!UNKNOWN_SENTINELS.has(v)) return v;
    if (opts.rejectUnknowns) throw new EngineError(`unexpected unknown property value for "${where}"`);
    return opts.keepUnknowns ? UNKNOWN : SKIP;
  }
  if (Array.isArray(v)) {
    return v.map((e, i) => {
      const u = unmarshalValue(e, opts, `${where}[${i}]`);
      return u === SKIP ? null : u;
    });
  }
  if (typeof v === "object") {
    const obj = v as { [k: string]: unknown };
    if (obj[SIG_KEY] === SECRET_SIG) {
      const inner = unmarshalValue(obj.value, opts, where);
      return inner === SKIP ? SKIP : new Secret(inner);
    }
    // Other signatures (assets, archives, resource references) are kept as their raw objects.
    return unmarshalProps(obj, opts, where);
  }
  throw new EngineError(`${where}: unexpected wire value ${String(v)}`);
}

function unmarshalProps(obj: { [k: string]: unknown }, opts: UnmarshalOpts, where: string): Props {
  const out: Props = {};
  for (const key of Object.keys(obj).sort()) {
    const u = unmarshalValue(obj[key], opts, `${where}.${key}`);
    if (u !== SKIP) out[key] = u;
  }
  return out;
}

function fromStruct(s: structprotoT.Struct | undefined, opts: UnmarshalOpts, where: string): Props {
  return s ? unmarshalProps(s.toJavaScript() as { [k: string]: unknown }, opts, where) : {};
}

/**
 * Go `annotateSecrets`: the dynamic provider does not accept secrets, so the engine strips them
 * on the way in and marks same-named outputs secret on the way out (recursing into objects).
 */
export function annotateSecrets(outs: Props | undefined, ins: Props | undefined): void {
  if (!outs || !ins) return;
  for (const [key, inValue] of Object.entries(ins)) {
    if (!Object.prototype.hasOwnProperty.call(outs, key)) continue;
    const outValue = outs[key];
    if (isPropObject(outValue) && isPropObject(inValue)) {
      annotateSecrets(outValue, inValue);
    } else if (!(outValue instanceof Secret) && containsSecrets(inValue)) {
      outs[key] = new Secret(outValue);
    }
  }
}

function deepEqual(a: PropValue, b: PropValue): boolean {
  if (a === UNKNOWN || b === UNKNOWN) return false; // computed values always count as a change
  if (a instanceof Secret || b instanceof Secret) {
    return a instanceof Secret && b instanceof Secret && deepEqual(a.value, b.value);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
    );
  }
  if (isPropObject(a) && isPropObject(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && deepEqual(a[k], b[k]));
  }
  return a === b;
}

// ---------------------------------------------------------------------------------------------
// Provider serialization (what `new pulumi.dynamic.Resource(provider, ...)` puts in `__provider`)
// ---------------------------------------------------------------------------------------------

export interface SerializedProvider {
  /** The module text stored under `__provider` in inputs and outputs (state). */
  text: string;
  /** True when the closure captured a secret Output: the SDK then marks `__provider` secret. */
  containsSecrets: boolean;
}

/** Serializes exactly as the SDK's `serializeFunctionMaybeSecret` (dynamic/index.js) does. */
export async function serializeProvider(provider: object): Promise<SerializedProvider> {
  const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return { text: sf.text, containsSecrets: sf.containsSecrets };
}

/** The `__provider` text for `provider` (assert on it to prove what the closure did or did not capture). */
export async function serializeProviderLikeEngine(provider: object): Promise<string> {
  return (await serializeProvider(provider)).text;
}

/**
 * The inputs the engine receives for `new dynamic.Resource(provider, name, props)`: `props` plus
 * `__provider` (secret-wrapped when the closure contains secrets, as the SDK does).
 */
export async function dynamicInputs(provider: object, props: Props): Promise<Props> {
  if (props[PROVIDER_KEY] !== undefined) {
    throw new HarnessUsageError("A dynamic resource must not define the __provider key");
  }
  const { text, containsSecrets: isSecretText } = await serializeProvider(provider);
  return { ...props, [PROVIDER_KEY]: isSecretText ? new Secret(text) : text };
}

// ---------------------------------------------------------------------------------------------
// URNs
// ---------------------------------------------------------------------------------------------

export interface UrnOptions {
  stack?: string;
  project?: string;
  /** `dynamic.Resource`'s `module` argument: type becomes `pulumi-nodejs:dynamic/<module>:<type>`. */
  module?: string;
  /** `dynamic.Resource`'s `type` argument (default "Resource"). */
  type?: string;
  /** Qualified type of the parent, e.g. "my:component:Vm" (stack parent is omitted, as in real URNs). */
  parentType?: string;
}

/** `urn:pulumi:stack::project::pulumi-nodejs:dynamic:Resource::name` (defaults match the plugin's). */
export function dynamicUrn(name: string, opts: UrnOptions = {}): string {
  const type = `pulumi-nodejs:dynamic${opts.module ? `/${opts.module}` : ""}:${opts.type ?? "Resource"}`;
  const qualified = opts.parentType ? `${opts.parentType}$${type}` : type;
  return `urn:pulumi:${opts.stack ?? "stack"}::${opts.project ?? "project"}::${qualified}::${name}`;
}

function urnParts(urn: string): { name: string; type: string } {
  const parts = urn.split("::");
  if (parts.length < 4 || !parts[0].startsWith("urn:pulumi:")) throw new HarnessUsageError(`bad URN: ${urn}`);
  const qualified = parts[2];
  return { name: parts.slice(3).join("::"), type: qualified.slice(qualified.lastIndexOf("$") + 1) };
}

// ---------------------------------------------------------------------------------------------
// Errors surfaced from the plugin
// ---------------------------------------------------------------------------------------------

/** Something the engine itself would reject (e.g. an unknown value in real outputs). */
export class EngineError extends Error {
  override name = "EngineError";
}

/** A failed provider RPC. `details` is the plugin's message (usually the provider's `Error.message`). */
export class ProviderRpcError extends Error {
  override name = "ProviderRpcError";
  constructor(
    public readonly method: string,
    public readonly code: number,
    public readonly details: string,
    message = `${method}: ${details}`,
  ) {
    super(message);
  }
  /** Engine classification (resourceStateAndError): Unknown/Internal/DataLoss leave the status unknown. */
  get statusUnknown(): boolean {
    return [grpc.status.UNKNOWN, grpc.status.INTERNAL, grpc.status.DATA_LOSS].includes(this.code);
  }
}

/**
 * A create/update the provider rejected with `{ id, properties, reasons }` (ErrorResourceInitFailed
 * in the gRPC status details). The engine keeps the resource in state with `id`/`outs` and reports
 * only `reasons` (`message` mirrors that text); the provider's own message is in `details`.
 */
export class PartialFailureError extends ProviderRpcError {
  override name = "PartialFailureError";
  constructor(
    method: string,
    code: number,
    details: string,
    public readonly id: string,
    /** `properties` from the error, secrets annotated like successful outputs. No `__provider` is added. */
    public readonly outs: Props,
    public readonly reasons: string[],
  ) {
    super(method, code, details, initErrorMessage(reasons));
  }
}

/** Go `InitError.Error()` (hashicorp/go-multierror formatting). */
function initErrorMessage(reasons: string[]): string {
  if (reasons.length === 0) return "resource init failed";
  const n = reasons.length;
  return `${n} error${n === 1 ? "" : "s"} occurred:\n${reasons.map((r) => `\t* ${r}`).join("\n")}\n\n`;
}

// ---------------------------------------------------------------------------------------------
// Engine log sink
// ---------------------------------------------------------------------------------------------

export interface LogEntry {
  /** stdout/stderr: lines the plugin printed (the engine shows them as diagnostics); engine: Engine.Log RPCs. */
  source: "stdout" | "stderr" | "engine";
  message: string;
  severity?: "debug" | "info" | "warning" | "error";
  urn?: string;
}

const SEVERITIES = ["debug", "info", "warning", "error"] as const;

interface EngineSink {
  address: string;
  server: grpcT.Server;
}

async function startEngineServer(onLog: (e: LogEntry) => void): Promise<EngineSink> {
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

// ---------------------------------------------------------------------------------------------
// The plugin
// ---------------------------------------------------------------------------------------------

export interface StartOptions {
  /** Working directory of the plugin; `@pulumi/pulumi` must resolve from it. Default: repo root. */
  cwd?: string;
  /** Extra environment for the plugin (added to this process's environment, as the engine does). */
  env?: Record<string, string>;
  /** Project name: sets PULUMI_NODEJS_PROJECT/PULUMI_PROJECT like the engine. Default "project". */
  project?: string;
  /** Stack name used by {@link ProviderPlugin.urn} and the default provider URN. Default "stack". */
  stack?: string;
  /**
   * Also set PULUMI_NODEJS_ENGINE so `pulumi.log.*` in provider code reaches the Engine gRPC sink
   * (entries with source "engine"). The real engine does NOT do this: there, `pulumi.log.info`
   * prints `info: [runtime] <msg>` on stdout. Default false (faithful).
   */
  structuredLogs?: boolean;
  /** Deadline per RPC in ms (the engine sets none). Default 30000. */
  callTimeoutMs?: number;
  /** How long to wait for the plugin to print its port. Default 30000. */
  startTimeoutMs?: number;
}

export type ConfigValue = string | Secret;

export interface Protocol {
  acceptSecrets: boolean;
  acceptResources: boolean;
  supportsPreview: boolean;
  acceptOutputs: boolean;
}

export interface CheckResult {
  inputs: Props;
  failures: { property: string; reason: string }[];
}
export interface DiffResult {
  /** What the engine concludes (a DIFF_UNKNOWN answer falls back to comparing old and new inputs). */
  changes: boolean;
  /** What the provider answered: `diff` returning `changes: undefined`, or no `diff` method, is "unknown". */
  changesKind: "some" | "none" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Always empty for dynamic providers (the plugin forwards neither `diffs` nor `stables`). */
  diffs: string[];
  stables: string[];
}
export interface CreateResult {
  id: string;
  outs: Props;
  /** False when the engine answered without calling the plugin (preview on a provider without preview support). */
  providerCalled: boolean;
}
export interface ReadResult {
  /** Empty when the provider reports the resource gone. */
  id: string;
  props: Props;
  /** Undefined when the provider returned no inputs (the engine then keeps the inputs it had). */
  inputs?: Props;
}
export interface UpdateResult {
  outs: Props;
  providerCalled: boolean;
}

export interface ProviderPlugin {
  readonly pid: number;
  readonly address: string;
  readonly engineAddress: string;
  readonly project: string;
  readonly stack: string;
  /** The plugin's GetPluginInfo version. */
  readonly version: string;
  /** Protocol flags from the Configure response (undefined before configure). */
  readonly protocol: Protocol | undefined;
  /** URN of a dynamic resource in this harness's project and stack. */
  urn(name: string, opts?: Omit<UrnOptions, "stack" | "project">): string;
  /** Stack config, keys namespaced (`vmapi:apiKey`); wrap secure values with {@link secret}. */
  configure(config: Record<string, ConfigValue>): Promise<void>;
  check(urn: string, olds: Props, news: Props, opts?: { preview?: boolean }): Promise<CheckResult>;
  /** `olds` are the old OUTPUTS (state); that is what the engine sends and what provider `diff` receives. */
  diff(
    id: string,
    urn: string,
    olds: Props,
    news: Props,
    opts?: { oldInputs?: Props; preview?: boolean; ignoreChanges?: string[] },
  ): Promise<DiffResult>;
  create(urn: string, props: Props, opts?: { preview?: boolean; timeout?: number }): Promise<CreateResult>;
  read(id: string, urn: string, props: Props, inputs?: Props): Promise<ReadResult>;
  /** `olds` are the old OUTPUTS (state), as the engine sends and provider `update` receives. */
  update(
    id: string,
    urn: string,
    olds: Props,
    news: Props,
    opts?: { oldInputs?: Props; preview?: boolean; ignoreChanges?: string[]; timeout?: number },
  ): Promise<UpdateResult>;
  /** `props` are the OUTPUTS (state), as the engine sends and provider `delete` receives. */
  delete(
    id: string,
    urn: string,
    props: Props,
    opts?: { oldInputs?: Props; timeout?: number },
  ): Promise<void>;
  /** Every line the plugin printed and every Engine.Log message, as text. */
  readonly logs: string[];
  readonly logEntries: LogEntry[];
  clearLogs(): void;
  /** Resolves with the first log line matching `pattern` (already seen or arriving within `timeoutMs`). */
  waitForLog(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Waits until the plugin has been quiet for `idleMs` (max 2 s), so output of finished calls is in `logs`. */
  flushLogs(idleMs?: number): Promise<void>;
  /** Stops the plugin process (its whole process group) and the engine sink. */
  close(): Promise<void>;
}

type UnaryMethod<Req, Res> = (
  req: Req,
  md: grpcT.Metadata,
  opts: Partial<grpcT.CallOptions>,
  cb: (err: grpcT.ServiceError | null, res: Res) => void,
) => grpcT.ClientUnaryCall;

/**
 * Starts `pulumi-resource-pulumi-nodejs <engine-address>` the way the engine does, reads its port,
 * performs the engine's Handshake (UNIMPLEMENTED here) and GetPluginInfo, and returns a client.
 */
export async function startProviderPlugin(opts: StartOptions = {}): Promise<ProviderPlugin> {
  const project = opts.project ?? "project";
  const stack = opts.stack ?? "stack";
  const callTimeoutMs = opts.callTimeoutMs ?? 30_000;
  const logEntries: LogEntry[] = [];
  const logs: string[] = [];
  const waiters = new Set<() => void>();
  let lastOutputAt = Date.now();
  const record = (e: LogEntry): void => {
    logEntries.push(e);
    logs.push(e.source === "engine" ? `${e.severity}: ${e.message}` : e.message);
    lastOutputAt = Date.now();
    for (const w of [...waiters]) w();
  };

  const engine = await startEngineServer(record);

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
  if (opts.structuredLogs) env.PULUMI_NODEJS_ENGINE = engine.address;
  Object.assign(env, opts.env ?? {});

  const child: ChildProcess = spawn(PLUGIN_PATH, [engine.address], {
    cwd: opts.cwd ?? REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group: the script runs `node` as a child of `sh`
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));

  const startTimeoutMs = opts.startTimeoutMs ?? 30_000;
  const port = await new Promise<number>((resolve, reject) => {
    let portSeen = false;
    const timer = setTimeout(
      () =>
        reject(new Error(`plugin did not print its port within ${startTimeoutMs} ms:\n${logs.join("\n")}`)),
      startTimeoutMs,
    );
    const lineReader = (source: "stdout" | "stderr") => {
      let buf = "";
      return (chunk: Buffer): void => {
        buf += chunk.toString("utf8");
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl).replace(/\r$/, "");
          buf = buf.slice(nl + 1);
          if (source === "stdout" && !portSeen && /^\d+$/.test(line.trim())) {
            // The first stdout line is the port (plugin.go reads it the same way).
            portSeen = true;
            clearTimeout(timer);
            resolve(Number(line.trim()));
            continue;
          }
          if (line.trim() !== "") record({ source, message: line });
        }
      };
    };
    child.stdout!.on("data", lineReader("stdout"));
    child.stderr!.on("data", lineReader("stderr"));
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("exit", (code, sig) => {
      clearTimeout(timer);
      if (!portSeen)
        reject(new Error(`plugin exited (${code ?? sig}) before printing its port:\n${logs.join("\n")}`));
    });
  }).catch((e: unknown) => {
    killGroup(child, "SIGKILL");
    engine.server.forceShutdown();
    throw e;
  });

  const address = `127.0.0.1:${port}`;
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

  // Engine startup sequence: Handshake (the dynamic provider answers UNIMPLEMENTED, and the engine
  // falls back to the Configure response), then GetPluginInfo.
  const hs = new provproto.ProviderHandshakeRequest()
    .setEngineAddress(engine.address)
    .setRootDirectory(path.dirname(PLUGIN_PATH))
    .setProgramDirectory(path.dirname(PLUGIN_PATH))
    .setConfigureWithUrn(true)
    .setSupportsViews(true)
    .setSupportsRefreshBeforeUpdate(true);
  let info: { getVersion(): string };
  try {
    await call("handshake", hs).catch((e: grpcT.ServiceError) => {
      if (e.code !== grpc.status.UNIMPLEMENTED) throw e;
    });
    info = await call<emptyprotoT.Empty, { getVersion(): string }>("getPluginInfo", new emptyproto.Empty());
  } catch (e) {
    client.close();
    killGroup(child, "SIGKILL");
    engine.server.forceShutdown();
    throw e;
  }

  let protocol: Protocol | undefined;
  const requireConfigured = (method: string): Protocol => {
    if (!protocol)
      throw new HarnessUsageError(`${method} before configure(): the engine always configures first`);
    return protocol;
  };
  const rpcError = (method: string, e: unknown): Error => {
    const se = e as grpcT.ServiceError;
    if (typeof se?.code !== "number") return e as Error;
    return new ProviderRpcError(method, se.code, se.details ?? se.message);
  };
  const noUnknowns = (method: string, ...bags: (Props | undefined)[]): void => {
    if (bags.some((b) => b && containsUnknowns(b))) {
      throw new HarnessUsageError(`${method}: UNKNOWN values only exist in preview; pass { preview: true }`);
    }
  };
  const stripped = (p: Protocol, keepUnknowns: boolean): MarshalOpts => ({
    keepSecrets: p.acceptSecrets,
    keepUnknowns,
  });
  const outputs: UnmarshalOpts = { keepUnknowns: false, rejectUnknowns: true };

  /** Create/Update failure: parseError() in provider_plugin.go. */
  const failure = (method: string, e: unknown, ins: Props): Error => {
    const se = e as grpcT.ServiceError;
    if (typeof se?.code !== "number") return e as Error;
    for (const raw of se.metadata?.get("grpc-status-details-bin") ?? []) {
      const status = statusproto.Status.deserializeBinary(new Uint8Array(raw as Buffer));
      for (const any of status.getDetailsList()) {
        if (any.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
        const init = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
        const outs = fromStruct(init.getProperties(), outputs, `${method}.outputs`);
        annotateSecrets(outs, ins);
        return new PartialFailureError(
          method,
          se.code,
          se.details ?? se.message,
          init.getId(),
          outs,
          init.getReasonsList(),
        );
      }
    }
    return rpcError(method, e);
  };

  const plugin: ProviderPlugin = {
    pid: child.pid!,
    address,
    engineAddress: engine.address,
    project,
    stack,
    version: info.getVersion(),
    get protocol() {
      return protocol;
    },
    logs,
    logEntries,

    urn(name, o = {}) {
      return dynamicUrn(name, { ...o, project, stack });
    },

    async configure(config) {
      // Default provider inputs for a dynamic provider = the whole stack config, namespaced keys,
      // secure values secret (target.go GetPackageConfig); Configure() in provider_plugin.go.
      const variables: Record<string, string> = {};
      for (const [k, v] of Object.entries(config)) {
        if (!k.includes(":"))
          throw new HarnessUsageError(`config key "${k}" must be namespaced (e.g. vmapi:${k})`);
        const plain = reveal(v);
        variables[`pulumi-nodejs:config:${k}`] = typeof plain === "string" ? plain : JSON.stringify(plain);
      }
      const req = new provproto.ConfigureRequest()
        .setArgs(toStruct(config, { keepSecrets: true, keepUnknowns: true }, "Configure.inputs"))
        .setAcceptsecrets(true)
        .setAcceptresources(true)
        .setSendsOldInputs(true)
        .setSendsOldInputsToDelete(true)
        .setUrn(`urn:pulumi:${stack}::${project}::pulumi:providers:pulumi-nodejs::default`)
        .setName("default")
        .setType("pulumi:providers:pulumi-nodejs")
        .setId(randomUUID());
      for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
      const res = await call<provprotoT.ConfigureRequest, provprotoT.ConfigureResponse>(
        "configure",
        req,
      ).catch((e) => Promise.reject(rpcError("Configure", e)));
      protocol = {
        acceptSecrets: res.getAcceptsecrets(),
        acceptResources: res.getAcceptresources(),
        supportsPreview: res.getSupportspreview(),
        acceptOutputs: res.getAcceptoutputs(),
      };
    },

    async check(urn, olds, news, o = {}) {
      const p = requireConfigured("Check");
      const allowUnknowns = o.preview === true;
      if (!allowUnknowns) noUnknowns("Check", olds, news);
      const { name, type } = urnParts(urn);
      const req = new provproto.CheckRequest()
        .setUrn(urn)
        .setName(name)
        .setType(type)
        .setOlds(toStruct(olds, stripped(p, allowUnknowns), "Check.olds"))
        .setNews(toStruct(news, stripped(p, allowUnknowns), "Check.news"))
        .setRandomseed(new Uint8Array(randomBytes(32)));
      const res = await call<provprotoT.CheckRequest, provprotoT.CheckResponse>("check", req).catch((e) =>
        Promise.reject(rpcError("Check", e)),
      );
      const inputs = fromStruct(
        res.getInputs(),
        { keepUnknowns: allowUnknowns, rejectUnknowns: !allowUnknowns },
        "Check.inputs",
      );
      if (!p.acceptSecrets) annotateSecrets(inputs, news);
      const failures = res
        .getFailuresList()
        .map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
      return { inputs, failures };
    },

    async diff(id, urn, olds, news, o = {}) {
      const p = requireConfigured("Diff");
      const allowUnknowns = o.preview === true;
      if (!allowUnknowns) noUnknowns("Diff", olds, news, o.oldInputs);
      const oldInputs = o.oldInputs ?? olds;
      const { name, type } = urnParts(urn);
      const req = new provproto.DiffRequest()
        .setId(id)
        .setUrn(urn)
        .setName(name)
        .setType(type)
        .setOldInputs(toStruct(oldInputs, stripped(p, allowUnknowns), "Diff.oldInputs"))
        .setOlds(toStruct(olds, stripped(p, allowUnknowns), "Diff.oldOutputs"))
        .setNews(toStruct(news, stripped(p, allowUnknowns), "Diff.newInputs"))
        .setIgnorechangesList(o.ignoreChanges ?? []);
      const res = await call<provprotoT.DiffRequest, provprotoT.DiffResponse>("diff", req).catch((e) =>
        Promise.reject(rpcError("Diff", e)),
      );
      const C = provproto.DiffResponse.DiffChanges;
      const kind =
        res.getChanges() === C.DIFF_SOME ? "some" : res.getChanges() === C.DIFF_NONE ? "none" : "unknown";
      // step_generator: DIFF_UNKNOWN -> legacy diff of old inputs against new inputs.
      const changes = kind === "some" || (kind === "unknown" && !deepEqual(oldInputs, news));
      return {
        changes,
        changesKind: kind,
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
        diffs: res.getDiffsList(),
        stables: res.getStablesList(),
      };
    },

    async create(urn, props, o = {}) {
      const p = requireConfigured("Create");
      const preview = o.preview === true;
      if (preview && !p.supportsPreview) {
        // provider_plugin.go Create: providers without preview support are not called during
        // preview; the inputs stand in for the state.
        return { id: "", outs: cloneProps(props), providerCalled: false };
      }
      if (!preview) noUnknowns("Create", props);
      const { name, type } = urnParts(urn);
      const req = new provproto.CreateRequest()
        .setUrn(urn)
        .setName(name)
        .setType(type)
        .setProperties(toStruct(props, stripped(p, preview), "Create.inputs"))
        .setTimeout(o.timeout ?? 0)
        .setPreview(preview);
      const res = await call<provprotoT.CreateRequest, provprotoT.CreateResponse>("create", req).catch((e) =>
        Promise.reject(failure("Create", e, props)),
      );
      const id = res.getId();
      if (id === "" && !preview) {
        throw new EngineError(
          `plugin for package 'pulumi-nodejs' returned empty resource.ID from create '${urn}'`,
        );
      }
      const outs = fromStruct(
        res.getProperties(),
        { keepUnknowns: preview, rejectUnknowns: !preview },
        "Create.outputs",
      );
      if (!p.acceptSecrets) annotateSecrets(outs, props);
      return { id, outs, providerCalled: true };
    },

    async read(id, urn, props, inputs) {
      const p = requireConfigured("Read");
      const { name, type } = urnParts(urn);
      const req = new provproto.ReadRequest()
        .setId(id)
        .setUrn(urn)
        .setName(name)
        .setType(type)
        .setProperties(toStruct(props, stripped(p, false), "Read.state"));
      if (inputs) req.setInputs(toStruct(inputs, stripped(p, false), "Read.inputs"));
      const res = await call<provprotoT.ReadRequest, provprotoT.ReadResponse>("read", req).catch((e) =>
        Promise.reject(failure("Read", e, props)),
      );
      const newState = fromStruct(res.getProperties(), outputs, "Read.outputs");
      const newInputs = res.hasInputs() ? fromStruct(res.getInputs(), outputs, "Read.inputs") : undefined;
      if (!p.acceptSecrets) {
        annotateSecrets(newInputs, inputs);
        annotateSecrets(newState, props);
      }
      return { id: res.getId(), props: newState, inputs: newInputs };
    },

    async update(id, urn, olds, news, o = {}) {
      const p = requireConfigured("Update");
      const preview = o.preview === true;
      if (preview && !p.supportsPreview) {
        return { outs: cloneProps(news), providerCalled: false };
      }
      if (!preview) noUnknowns("Update", olds, news, o.oldInputs);
      const { name, type } = urnParts(urn);
      const req = new provproto.UpdateRequest()
        .setId(id)
        .setUrn(urn)
        .setName(name)
        .setType(type)
        .setOlds(toStruct(olds, stripped(p, false), "Update.oldOutputs"))
        .setNews(toStruct(news, stripped(p, preview), "Update.newInputs"))
        .setOldInputs(toStruct(o.oldInputs ?? olds, stripped(p, false), "Update.oldInputs"))
        .setTimeout(o.timeout ?? 0)
        .setIgnorechangesList(o.ignoreChanges ?? [])
        .setPreview(preview);
      const res = await call<provprotoT.UpdateRequest, provprotoT.UpdateResponse>("update", req).catch((e) =>
        Promise.reject(failure("Update", e, news)),
      );
      const outs = fromStruct(
        res.getProperties(),
        { keepUnknowns: preview, rejectUnknowns: !preview },
        "Update.outputs",
      );
      if (!p.acceptSecrets) annotateSecrets(outs, news);
      return { outs, providerCalled: true };
    },

    async delete(id, urn, props, o = {}) {
      const p = requireConfigured("Delete");
      noUnknowns("Delete", props, o.oldInputs);
      const { name, type } = urnParts(urn);
      const req = new provproto.DeleteRequest()
        .setId(id)
        .setUrn(urn)
        .setName(name)
        .setType(type)
        .setProperties(toStruct(props, stripped(p, false), "Delete.outputs"))
        .setOldInputs(toStruct(o.oldInputs ?? props, stripped(p, false), "Delete.inputs"))
        .setTimeout(o.timeout ?? 0);
      await call("delete", req).catch((e) => Promise.reject(rpcError("Delete", e)));
    },

    clearLogs() {
      logs.length = 0;
      logEntries.length = 0;
    },

    waitForLog(pattern, timeoutMs = 2_000) {
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
    },

    async flushLogs(idleMs = 30) {
      const deadline = Date.now() + 2_000;
      await new Promise((r) => setImmediate(r));
      while (Date.now() - lastOutputAt < idleMs && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, idleMs));
      }
    },

    async close() {
      client.close();
      if (child.exitCode === null && child.signalCode === null) {
        killGroup(child, "SIGTERM");
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), 2_000);
        await exited;
        clearTimeout(timer);
      }
      await new Promise<void>((resolve) => engine.server.tryShutdown(() => resolve()));
    },
  };
  return plugin;
}

/** Signals the plugin's process group (the `sh` wrapper and its `node`), which this harness started. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
