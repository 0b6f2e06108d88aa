/**
 * Runs `npm run pulumi -- <args>` as a user does (the wrapper in tools/pulumi, then the real
 * `pulumi` CLI), without npm's own start-up cost nor ts-node's compiling of the wrapper at every
 * run (wrapperHook.js), and reads the engine's structured event log.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export const REPO = path.resolve(__dirname, "..", "..", "..");
const WRAPPER = path.join(REPO, "tools", "pulumi", "main.ts");
/** The wrapper's modules compiled once and kept, the program's by ts-node (wrapperHook.js). */
const HOOK = path.join(__dirname, "wrapperHook.js");

/** One run of the CLI. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The engine's events (`--event-log`), when asked for. */
  events: EngineEvent[];
}

/** One line of the engine's event log (the shape the Automation API reads). */
export interface EngineEvent {
  sequence: number;
  resourcePreEvent?: { metadata: StepMetadata };
  resOutputsEvent?: { metadata: StepMetadata };
  resOpFailedEvent?: { metadata: StepMetadata; status: number; steps: number };
  diagnosticEvent?: { message: string; severity: string; urn?: string; prefix?: string };
  summaryEvent?: { resourceChanges: Record<string, number>; result: string; isPreview: boolean };
}

/** What the engine says of one step. */
export interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
  new?: { id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
  diffs?: string[];
  keys?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }> | null;
}

/** Options of one run. */
export interface CliOptions {
  /** The environment (backend, PULUMI_HOME, passphrase, VMAPI_WORKDIR): see EngineWorkspace. */
  env: NodeJS.ProcessEnv;
  /** Ask the engine for its event log (up, preview, refresh, destroy only). */
  events?: boolean;
  /** Called with the child's pid once it runs (for tests that signal it). */
  onSpawn?: (pid: number) => void;
  /** Kills the run after this long; a test's own bound, far above what the run needs. */
  timeoutMs?: number;
}

/** Runs the wrapper with `args`; never rejects for a non-zero exit (the caller asserts on it). */
export function runWrapper(args: string[], options: CliOptions): Promise<CliRun> {
  return runCommand(process.execPath, ["-r", HOOK, WRAPPER, ...args], {
    ...options,
    cwd: REPO,
  });
}

/**
 * Runs `command` with `args` (a CLI command line, to which `--event-log` is added when events are
 * asked for) in `cwd`; never rejects for a non-zero exit.
 */
export async function runCommand(
  command: string,
  args: string[],
  options: CliOptions & { cwd: string },
): Promise<CliRun> {
  const eventLog = options.events
    ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-events-")), "events.jsonl")
    : undefined;
  const fullArgs = eventLog ? [...args, "--event-log", eventLog] : args;
  // --event-log is one of the CLI's debug flags, as the Automation API uses it.
  const env = eventLog ? { ...options.env, PULUMI_DEBUG_COMMANDS: "true" } : options.env;
  // A process group of its own, so a timed-out run is ended whole: the CLI and the language host
  // and plugins it started would otherwise outlive it and hold the pipes open.
  const child = spawn(command, fullArgs, {
    cwd: options.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  options.onSpawn?.(child.pid!);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => killGroup(child.pid!), options.timeoutMs ?? 240_000);
  const code = await new Promise<number>((resolve) =>
    child.once("close", (c, signal) => resolve(c ?? (signal ? 128 : 1))),
  );
  clearTimeout(timer);
  const events = eventLog ? readEvents(eventLog) : [];
  if (eventLog) fs.rmSync(path.dirname(eventLog), { recursive: true, force: true });
  return { code, stdout, stderr, events };
}

/** SIGKILL to every process of the group `leader` leads (gone already: nothing to do). */
function killGroup(leader: number): void {
  try {
    process.kill(-leader, "SIGKILL");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

function readEvents(file: string): EngineEvent[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as EngineEvent);
}

/** The engine's finished steps (or planned ones, in a preview) on custom resources, in order. */
export function steps(run: CliRun): Array<StepMetadata & { name: string; failed: boolean }> {
  const done = run.events.flatMap((e) => {
    const meta = e.resOutputsEvent?.metadata ?? e.resOpFailedEvent?.metadata;
    return meta ? [{ ...meta, failed: e.resOpFailedEvent !== undefined }] : [];
  });
  // A preview reports planned steps as pre-events only.
  const planned = run.events.flatMap((e) =>
    e.resourcePreEvent ? [{ ...e.resourcePreEvent.metadata, failed: false }] : [],
  );
  const chosen = done.length > 0 ? done : planned;
  return chosen
    .filter((s) => s.type !== "pulumi:pulumi:Stack" && !s.type.startsWith("pulumi:providers:"))
    .map((s) => ({ ...s, name: s.urn.slice(s.urn.lastIndexOf("::") + 2) }));
}

/** Every info/warning/error message the engine showed, in order, as "severity: text" (no debug lines). */
export function messages(run: CliRun): string[] {
  return run.events.flatMap((e) => {
    const d = e.diagnosticEvent;
    return d && d.severity !== "debug" ? [`${d.severity}: ${d.message.trim()}`] : [];
  });
}

/** The engine's summary of the run. */
export function summary(run: CliRun): { resourceChanges: Record<string, number>; result: string } {
  const found = run.events.find((e) => e.summaryEvent)?.summaryEvent;
  if (!found) throw new Error(`no summary event; stderr:\n${run.stderr}\nstdout:\n${run.stdout}`);
  return found;
}

/** Fails with what the CLI printed unless the run exited with `code`. */
export function expectExit(run: CliRun, code = 0): CliRun {
  if (run.code !== code) {
    throw new Error(
      `expected exit ${code}, got ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`,
    );
  }
  return run;
}

/**
 * Runs `op` (an `up`, a `destroy`) until it exits 0, at most `tries` times, as a user runs a
 * command again after it failed on a faulty API; every run, the last one last.
 */
export async function untilSucceeds(op: () => Promise<CliRun>, tries: number): Promise<CliRun[]> {
  const runs: CliRun[] = [];
  for (let i = 0; i < tries; i++) {
    const run = await op();
    runs.push(run);
    if (run.code === 0) break;
  }
  return runs;
}

/** The output keys whose values differ between a step's old and new state (what a refresh found). */
export function changedOutputs(step: StepMetadata): string[] {
  const before = step.old?.outputs ?? {};
  const after = step.new?.outputs ?? {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}
