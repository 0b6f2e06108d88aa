/**
 * `npm run demo` and `npm run stack -- <command>`: run a Pulumi program of this repository
 * against the emulator (or your endpoint) without the `pulumi` CLI, through the engine
 * substitute in tools/engine (the real dynamic-provider plugin, driven as the engine drives it;
 * docs/program-runner.md says what it does and does not reproduce).
 *
 * Everything it keeps is under .vmapi/ (git-ignored): the emulator's state file and log, where
 * the emulator listens, and each stack's state.
 */
import * as fs from "fs";
import * as path from "path";
import {
  isSecret,
  secret,
  startProviderPlugin,
  type ConfigValue,
  type Props,
} from "./engine/providerHarness";
import { emptyStackState, runProgram, type RunResult, type StackState } from "./engine/programRunner";
import { fromWire } from "./engine/programRunnerWire";
import { EMULATOR_TIME_SCALE, ensureEmulator, stopEmulator, WORKDIR } from "./localEmulator";
import { decryptSecrets, encryptSecrets, stateKey } from "./stateCrypto";

const REPO = path.resolve(__dirname, "..");
const DEFAULT_PROGRAM = path.join(REPO, "examples", "quickstart");
const COMMANDS = ["demo", "up", "preview", "refresh", "destroy", "outputs", "machines", "stop-emulator"];

interface Args {
  command: string;
  program: string;
  stack: string;
  /** Print the result as JSON on stdout (progress goes to stderr): for review tools in CI. */
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const [command = "", ...rest] = argv;
  if (!COMMANDS.includes(command)) {
    throw new Error(
      `usage: npm run stack -- <${COMMANDS.join("|")}> [--program DIR] [--stack NAME] [--json]`,
    );
  }
  const flag = (name: string, fallback: string) => {
    const at = rest.indexOf(name);
    return at >= 0 && rest[at + 1] ? rest[at + 1] : fallback;
  };
  return {
    command,
    program: path.resolve(flag("--program", DEFAULT_PROGRAM)),
    stack: flag("--stack", "dev"),
    json: rest.includes("--json"),
  };
}

/** The endpoint and key: VMAPI_BASE_URL/VMAPI_API_KEY when set, else the local emulator. */
async function connection(say: (line: string) => void = console.log): Promise<{
  baseUrl: string;
  apiKey: string;
  pollScale?: string;
}> {
  const baseUrl = process.env.VMAPI_BASE_URL;
  if (baseUrl) {
    const apiKey = process.env.VMAPI_API_KEY;
    if (!apiKey) throw new Error("VMAPI_BASE_URL is set but VMAPI_API_KEY is not");
    return { baseUrl, apiKey };
  }
  const emulator = await ensureEmulator(say);
  // The provider polls at the emulator's speed.
  return { baseUrl: emulator.url, apiKey: emulator.keys.individual, pollScale: EMULATOR_TIME_SCALE };
}

function statePath(args: Args): string {
  return path.join(WORKDIR, "stacks", `${path.basename(args.program)}-${args.stack}.json`);
}

/** The stack's state; its secrets are stored encrypted (tools/stateCrypto.ts). */
function loadState(file: string): StackState {
  if (!fs.existsSync(file)) return emptyStackState();
  return decryptSecrets(JSON.parse(fs.readFileSync(file, "utf8")), stateKey(WORKDIR)) as StackState;
}

function saveState(file: string, state: StackState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const stored = encryptSecrets(state, stateKey(WORKDIR));
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(stored, null, 2), { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
}

/** Runs one operation, printing the provider's progress lines as they come. */
async function run(args: Args, mode: "up" | "preview" | "refresh" | "destroy"): Promise<RunResult> {
  // With --json, stdout carries the JSON alone: everything else goes to stderr.
  const say = args.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  const { baseUrl, apiKey, pollScale } = await connection(say);
  const file = statePath(args);
  const stackState = loadState(file);
  const config: Record<string, ConfigValue> = { "vmapi:apiKey": secret(apiKey), "vmapi:baseUrl": baseUrl };
  if (pollScale) config["vmapi:pollScale"] = pollScale;
  say(`${mode} ${path.relative(REPO, args.program) || "."} (stack ${args.stack}) against ${baseUrl}`);
  const plugin = await startProviderPlugin({ stack: args.stack });
  let printed = 0;
  const ticker = setInterval(() => {
    for (const line of plugin.logs.slice(printed)) say(`  ${line.replace(/^info: \[runtime\] /, "")}`);
    printed = plugin.logs.length;
  }, 200);
  try {
    const result = await runProgram(path.join(args.program, "index.ts"), {
      stackState,
      mode,
      config,
      plugin,
      stack: args.stack,
      timeoutMs: 30 * 60_000,
    });
    await plugin.flushLogs();
    return result;
  } finally {
    clearInterval(ticker);
    for (const line of plugin.logs.slice(printed)) say(`  ${line.replace(/^info: \[runtime\] /, "")}`);
    if (mode !== "preview") saveState(file, stackState);
    await plugin.close();
  }
}

const SYMBOL: Record<string, string> = {
  same: " ",
  create: "+",
  update: "~",
  replace: "+-",
  delete: "-",
  "delete-replaced": "-",
  refresh: "~",
};

function report(result: RunResult, verb: string): void {
  for (const step of result.steps) {
    const detail = step.replaces?.length ? ` [replace: ${step.replaces.join(", ")}]` : "";
    const drift =
      step.drift && step.drift !== "none" ? ` [${step.drift}: ${(step.changed ?? []).join(", ")}]` : "";
    console.log(
      `${(SYMBOL[step.op] ?? "?").padStart(2)} ${step.op.padEnd(15)} ${step.type} ${step.name}${detail}${drift}`,
    );
  }
  // A refresh that found a resource as the state has it changed nothing.
  const changes = result.steps.filter(
    (s) => s.op !== "same" && !(s.op === "refresh" && s.drift === "none"),
  ).length;
  console.log(changes === 0 ? `${verb}: no changes` : `${verb}: ${changes} change(s)`);
  if (Object.keys(result.outputs).length > 0) printOutputs(result.outputs);
  if (result.error) {
    console.error(`error: ${result.error}`);
    process.exitCode = 1;
  }
}

/**
 * The planned (preview) or applied steps as JSON, for change review in CI: one entry per
 * resource with its operation, and the properties that force a replacement.
 */
function reportJson(result: RunResult, verb: string): void {
  const steps = result.steps.map(({ op, urn, type, name, id, oldId, replaces, drift, changed, failed }) => ({
    op,
    urn,
    type,
    name,
    ...(id ? { id } : {}),
    ...(oldId ? { oldId } : {}),
    ...(replaces?.length ? { replaces } : {}),
    ...(drift ? { drift, changed } : {}),
    ...(failed ? { failed } : {}),
  }));
  const changeSummary: Record<string, number> = {};
  for (const step of steps) changeSummary[step.op] = (changeSummary[step.op] ?? 0) + 1;
  console.log(
    JSON.stringify(
      { operation: verb, steps, changeSummary, ...(result.error ? { error: result.error } : {}) },
      null,
      2,
    ),
  );
  if (result.error) process.exitCode = 1;
}

function printOutputs(outputs: Props): void {
  console.log("Outputs:");
  for (const [key, value] of Object.entries(outputs)) {
    const shown = isSecret(value) ? "[secret]" : value;
    console.log(`  ${key.padEnd(14)} ${typeof shown === "string" ? shown : JSON.stringify(shown)}`);
  }
}

async function printMachines(): Promise<void> {
  const { baseUrl, apiKey } = await connection();
  const response = await fetch(`${baseUrl}/machines/getMachines`, { headers: { "X-Api-Key": apiKey } });
  const machines = (await response.json()) as Array<Record<string, unknown>>;
  console.log(`Machines at ${baseUrl} (${machines.length}):`);
  for (const m of machines) {
    console.log(
      `  ${String(m.id).padEnd(10)} ${String(m.state).padEnd(13)} ${m.machineType} ${m.region} ${m.name}`,
    );
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  switch (args.command) {
    case "demo": {
      report(await run(args, "up"), "up");
      await printMachines();
      console.log("\nNext: `npm run stack -- preview` (no changes), `npm run stack -- destroy`.");
      return;
    }
    case "up":
    case "preview":
    case "refresh":
    case "destroy":
      return (args.json ? reportJson : report)(await run(args, args.command), args.command);
    case "outputs":
      return printOutputs(fromWire(loadState(statePath(args)).outputs));
    case "machines":
      return printMachines();
    case "stop-emulator":
      return stopEmulator((line) => console.log(line));
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
