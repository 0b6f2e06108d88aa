/**
 * The program process of the program runner (see docs/program-runner.md): runs one Pulumi program
 * under the SDK's own mock monitor (`pulumi.runtime.setMocks`) inside `runInPulumiStack`, as the
 * Node language host does, and forwards every custom-resource registration to the runner over IPC.
 * Started by programRunnerProcess.ts with ts-node (transpile-only); never imported by tests.
 */
import Module = require("module");
import type * as pulumiTypes from "@pulumi/pulumi";
import type {
  ChildMessage,
  ChildStart,
  RegisterMessage,
  RegistrationOptions,
  ReplyMessage,
  Wire,
  WireProps,
} from "./programRunnerWire";

type PulumiModule = typeof pulumiTypes;

interface RegisterRequest {
  getParent(): string;
  getAdditionalsecretoutputsList(): string[];
  getIgnorechangesList(): string[];
  getDeletebeforereplace(): boolean;
  getDeletebeforereplacedefined(): boolean;
  getProtect(): boolean | undefined;
  getRetainondelete(): boolean | undefined;
  getDependenciesList(): string[];
}
type MonitorMethod = (req: RegisterRequest, cb: unknown) => Promise<void>;
interface MockMonitorLike {
  registerResource: MonitorMethod;
  getRegisteredResources(): Map<string, { urn: string; state: unknown }>;
}

const start = JSON.parse(process.argv[2]) as ChildStart;

/** "pulumi-vmapi" → the package sources, as tsconfig's `paths` does for the type checker. */
function mapPackageName(entry: string): void {
  const M = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const original = M._resolveFilename;
  M._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return original.call(this, request === "pulumi-vmapi" ? entry : request, ...rest);
  };
}

function send(message: ChildMessage): void {
  process.send!(message);
}

const pending = new Map<number, { resolve: (r: ReplyMessage) => void }>();
let nextRid = 1;
process.on("message", (m: ReplyMessage) => pending.get(m.rid)?.resolve(m));

/** SDK values as the mock sees them → JSON wire values (unknowns back to the sentinel). */
function toWire(pulumi: PulumiModule, v: unknown): Wire {
  if (pulumi.isUnknown(v)) return pulumi.runtime.unknownValue;
  if (v === undefined) return null;
  if (v === null || typeof v !== "object") return v as Wire;
  if (Array.isArray(v)) return v.map((x) => toWire(pulumi, x));
  const out: { [k: string]: Wire } = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toWire(pulumi, x);
  return out;
}

function optionsOf(req: RegisterRequest): RegistrationOptions {
  return {
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    ignoreChanges: req.getIgnorechangesList(),
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
    protect: req.getProtect() === true,
    retainOnDelete: req.getRetainondelete() === true,
    dependencies: req.getDependenciesList(),
  };
}

/** Asks the runner (the engine) for the outcome of one registration. */
async function register(message: Omit<RegisterMessage, "kind" | "rid">): Promise<ReplyMessage> {
  const rid = nextRid++;
  const reply = new Promise<ReplyMessage>((resolve) => pending.set(rid, { resolve }));
  send({ kind: "register", rid, ...message });
  const answer = await reply;
  pending.delete(rid);
  return answer;
}

function mocks(pulumi: PulumiModule, current: () => RegisterRequest | undefined): pulumiTypes.runtime.Mocks {
  return {
    async newResource(args) {
      const req = current(); // read synchronously: set only while registerResource runs its sync part
      if (!args.custom) return { id: undefined, state: {} }; // components and the stack: no provider
      if (!req)
        throw new Error(`${args.type} ${args.name}: reading existing resources (.get) is not supported`);
      const inputs = toWire(pulumi, args.inputs) as WireProps;
      const reply = await register({
        type: args.type,
        name: args.name,
        parent: req.getParent(),
        inputs,
        options: optionsOf(req),
      });
      if (reply.kind === "rejected") throw new Error(reply.message);
      return { id: reply.id, state: reply.state };
    },
    async call(args) {
      throw new Error(`invoke ${args.token}: provider functions are not supported by the program runner`);
    },
  };
}

/** The stack's outputs as registered (RegisterResourceOutputs), secrets still marked. */
function stackOutputs(monitor: MockMonitorLike): WireProps {
  for (const r of monitor.getRegisteredResources().values()) {
    if (!r.urn.includes("::pulumi:pulumi:Stack::")) continue;
    const s = r.state as { toJavaScript?: () => WireProps } | undefined;
    return typeof s?.toJavaScript === "function" ? s.toJavaScript() : {};
  }
  return {};
}

async function main(): Promise<void> {
  mapPackageName(start.packageEntry);
  const pulumi: PulumiModule = require("@pulumi/pulumi");
  const settings = require("@pulumi/pulumi/runtime/settings");
  let current: RegisterRequest | undefined;
  await pulumi.runtime.setMocks(
    mocks(pulumi, () => current),
    start.project,
    start.stack,
    start.preview,
  );
  const monitor = settings.getMonitor() as MockMonitorLike;
  const original = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, cb) => {
    current = req;
    try {
      return original(req, cb);
    } finally {
      current = undefined;
    }
  };
  await pulumi.runtime.runInPulumiStack(async () => {
    const exported = require(start.program);
    return typeof exported === "function" ? await exported() : exported;
  });
  await settings.waitForRPCs();
  await new Promise((resolve) => setTimeout(resolve, 0)); // let late rejections surface
  if (failures === 0) send({ kind: "done", outputs: stackOutputs(monitor) });
}

// Like the language host: any unhandled error fails the program, even if it ran to its end.
let failures = 0;
const fail = (err: unknown): void => {
  failures++;
  send({ kind: "failed", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
};
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);
main().catch(fail);
