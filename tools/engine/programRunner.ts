/**
 * Program runner: runs a real Pulumi program (e.g. examples/quickstart/index.ts) end to end
 * without the `pulumi` CLI. The program runs in its own process under the SDK's mock monitor
 * (`pulumi.runtime.setMocks`); each registration comes here, where an engine stand-in
 * (programRunnerEngine.ts) drives the real dynamic-provider plugin through the provider harness
 * and keeps a persistent {@link StackState}. See docs/program-runner.md for what matches the
 * engine and what does not.
 */
import * as fs from "fs";
import * as path from "path";
import {
  Secret,
  reveal,
  startProviderPlugin,
  type ConfigValue,
  type ProviderPlugin,
  type Props,
} from "./providerHarness";
import { Deployment } from "./programRunnerEngine";
import { deleteResource, markSecret, stepOf } from "./programRunnerOps";
import { configEnvironment, startProgramProcess } from "./programRunnerProcess";
import {
  inputsOf,
  outputsOf,
  removeResource,
  reverseOrder,
  type StackState,
  type StateResource,
  type Step,
} from "./programRunnerState";
import { fromWire, toWire, type WireProps } from "./programRunnerWire";

export { emptyStackState, type StackState, type StateResource, type Step } from "./programRunnerState";

/** What the source `pulumi-vmapi` resolves to inside programs. */
const PACKAGE_ENTRY = path.resolve(__dirname, "..", "..", "src", "index.ts");

/** Options of {@link runProgram}. */
export interface RunOptions {
  /** The stack's state; updated in place (pass the same object to the next run). */
  stackState: StackState;
  mode: "up" | "preview" | "refresh" | "destroy";
  /** Stack config, e.g. `{"vmapi:apiKey": secret(key), "vmapi:baseUrl": url, teamId: "t1"}`; bare keys get the project's namespace. */
  config?: Record<string, ConfigValue>;
  /** A started plugin to reuse (it keeps each provider's first configuration); default: a fresh one per run, as the engine does. */
  plugin?: ProviderPlugin;
  /** Default: `name` in the Pulumi.yaml next to the program, else "project". */
  project?: string;
  /** Default "dev". */
  stack?: string;
  /** How long the program may run (default 120 s). */
  timeoutMs?: number;
  /** What `pulumi-vmapi` resolves to in the program (default src/index.ts; dist/index.js is the installed form). */
  packageEntry?: string;
}

/** Log lines of one run. */
export interface RunLogs {
  /** What the program printed (`pulumi.log.info` → `info: [runtime] …`). */
  program: string[];
  /** What the plugin printed or sent to the engine during the run (provider progress, errors). */
  plugin: string[];
  /** The runner's own diagnostics (as the CLI would print them). */
  engine: string[];
}

/** The outcome of {@link runProgram}. */
export interface RunResult {
  /** What happened, or in preview what would happen, per resource. */
  steps: Step[];
  /** Stack exports (secrets as `Secret`, preview unknowns as `UNKNOWN`). Empty after refresh and destroy. */
  outputs: Props;
  logs: RunLogs;
  /** Set when the operation failed: check failures, provider errors, a failed program. */
  error?: string;
}

/** Runs `programPath` in the given mode against `options.stackState`. */
export async function runProgram(programPath: string, options: RunOptions): Promise<RunResult> {
  const { program, name } = resolveProject(path.resolve(programPath));
  const project = options.project ?? name;
  const stack = options.stack ?? "dev";
  const config = namespaced(options.config ?? {}, project);
  const firstLog = options.plugin?.logs.length ?? 0;
  // Started alongside the program (the engine loads plugins on demand), configured before use.
  const pluginReady = (
    options.plugin ? Promise.resolve(options.plugin) : startProviderPlugin({ project, stack })
  ).then(async (p) => (await p.configure(config), p));
  const packageEntry = options.packageEntry ?? PACKAGE_ENTRY;
  const ctx: RunContext = {
    program,
    project,
    stack,
    config,
    pluginReady,
    packageEntry,
    state: options.stackState,
  };
  try {
    const result =
      options.mode === "refresh"
        ? await refresh(ctx, await pluginReady)
        : options.mode === "destroy"
          ? await destroy(ctx, await pluginReady)
          : await update(ctx, options.mode === "preview", options.timeoutMs ?? 120_000);
    const plugin = await pluginReady;
    await plugin.flushLogs();
    return { ...result, logs: { ...result.logs, plugin: plugin.logs.slice(firstLog) } };
  } finally {
    if (!options.plugin)
      await pluginReady.then(
        (p) => p.close(),
        () => undefined,
      );
  }
}

/** True when a preview's steps change nothing (every step is `same`). */
export function hasNoChanges(result: RunResult): boolean {
  return result.error === undefined && result.steps.every((s) => s.op === "same");
}

interface RunContext {
  program: string;
  project: string;
  stack: string;
  config: Record<string, ConfigValue>;
  pluginReady: Promise<ProviderPlugin>;
  packageEntry: string;
  state: StackState;
}

type Outcome = Omit<RunResult, "logs"> & { logs: Omit<RunLogs, "plugin"> };

/** `pulumi up` / `pulumi preview`: run the program, then delete what it no longer declares. */
async function update(ctx: RunContext, preview: boolean, timeoutMs: number): Promise<Outcome> {
  const deployment = new Deployment(ctx.pluginReady, ctx.state, { ...ctx, preview });
  const proc = startProgramProcess(
    { program: ctx.program, project: ctx.project, stack: ctx.stack, preview, packageEntry: ctx.packageEntry },
    programConfig(ctx.config),
    (m) => deployment.register(m),
    timeoutMs,
  );
  const ended = await proc.outcome;
  const engine: string[] = [];
  if (ended.error !== undefined) {
    const message = `Running program '${ctx.program}' failed with an unhandled exception:\n${ended.error}`;
    // A failed step makes the program fail too: then its error is only a consequence, logged.
    if (deployment.errors.length === 0) deployment.fail(message);
    else engine.push(message);
  }
  await deployment.settled();
  if (deployment.errors.length === 0) await deployment.deleteLeftovers();
  await proc.stop();
  const ok = deployment.errors.length === 0;
  if (ok && !preview) ctx.state.outputs = ended.outputs ?? {};
  engine.push(...deployment.errors);
  return {
    steps: deployment.steps,
    outputs: fromWire(ended.outputs ?? {}),
    error: ok ? undefined : deployment.errors.join("\n"),
    logs: { program: proc.logs, engine },
  };
}

/** `pulumi refresh`: read every resource; gone ones leave the state, the others take what was read. */
async function refresh(ctx: RunContext, plugin: ProviderPlugin): Promise<Outcome> {
  const steps: Step[] = [];
  const errors: string[] = [];
  await Promise.all(
    [...ctx.state.resources].map((r) =>
      refreshOne(ctx.state, plugin, r, steps).catch((e: Error) => {
        steps.push({ ...stepOf("refresh", r), failed: true });
        errors.push(`${r.urn}: refreshing failed: ${e.message}`);
      }),
    ),
  );
  return done(steps, errors);
}

async function refreshOne(state: StackState, plugin: ProviderPlugin, r: StateResource, steps: Step[]) {
  const read = await plugin.read(r.id, r.urn, outputsOf(r), inputsOf(r));
  if (!read.id) {
    removeResource(state, r);
    steps.push({ ...stepOf("refresh", r), drift: "gone" });
    return;
  }
  const outputs = toWire(markSecret(read.props, r.options.additionalSecretOutputs));
  const changed = changedKeys(r.outputs, outputs);
  Object.assign(r, { id: read.id, outputs, inputs: read.inputs ? toWire(read.inputs) : r.inputs });
  delete r.initErrors;
  steps.push({ ...stepOf("refresh", r), drift: changed.length ? "changed" : "none", changed });
}

/** `pulumi destroy`: delete everything, newest first; stop at the first failure. */
async function destroy(ctx: RunContext, plugin: ProviderPlugin): Promise<Outcome> {
  const steps: Step[] = [];
  const errors: string[] = [];
  for (const r of reverseOrder(ctx.state.resources)) {
    const fail = (m: string): Error => (errors.push(m), new Error(m));
    if (!(await deleteResource(plugin, ctx.state, r, steps, fail))) break;
  }
  if (errors.length === 0) ctx.state.outputs = {};
  return done(steps, errors);
}

function done(steps: Step[], errors: string[]): Outcome {
  return {
    steps,
    outputs: {},
    error: errors.length ? errors.join("\n") : undefined,
    logs: { program: [], engine: errors },
  };
}

/** Output keys whose values differ (compared as JSON). */
function changedKeys(before: WireProps, after: WireProps): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

/** PULUMI_CONFIG for the program: plain values, with the secret keys listed. */
function programConfig(config: Record<string, ConfigValue>): Record<string, string> {
  const values: Record<string, string> = {};
  const secretKeys: string[] = [];
  for (const [k, v] of Object.entries(config)) {
    values[k] = String(reveal(v));
    if (v instanceof Secret) secretKeys.push(k);
  }
  return configEnvironment(values, secretKeys);
}

function namespaced(config: Record<string, ConfigValue>, project: string): Record<string, ConfigValue> {
  return Object.fromEntries(
    Object.entries(config).map(([k, v]) => [k.includes(":") ? k : `${project}:${k}`, v]),
  );
}

/**
 * The program and project name from the Pulumi.yaml in the program's folder: `name` (what
 * `new pulumi.Config()` namespaces with, default "project") and `main` (default: the folder).
 */
function resolveProject(programPath: string): { program: string; name: string } {
  const dir = fs.statSync(programPath).isDirectory() ? programPath : path.dirname(programPath);
  const yaml = path.join(dir, "Pulumi.yaml");
  if (!fs.existsSync(yaml)) return { program: programPath, name: "project" };
  const text = fs.readFileSync(yaml, "utf8");
  const field = (key: string): string | undefined =>
    new RegExp(`^${key}:\\s*(\\S+)`, "m").exec(text)?.[1]?.replace(/^["']|["']$/g, "");
  const main = field("main");
  const program = main && programPath === dir ? path.resolve(dir, main) : programPath;
  return { program, name: field("name") ?? "project" };
}
