/**
 * `npm run example:go -- <command>` and `npm run example:python -- <command>`: the Go and Python
 * quickstarts (examples/go, examples/python) on the real `pulumi` CLI, offline, with the plugin of
 * this checkout installed into PULUMI_HOME as a user's installed plugin is found
 * (tools/pulumi/checkoutPlugin.ts; dist/ compiled first when src/ changed). `npm run example:java -- <command>` is
 * `npm run pulumi -- <command>` in examples/java: an ordinary Java project, which the CLI runs with
 * Pulumi's Java language host.
 *
 *   up | preview | refresh | destroy  [--stack NAME] [--json]
 *       the example's program, hosted inline by its language's Automation API runner
 *       (tools/examples/runner): Go's built with the example's package once into the cache
 *       (tools/examples/go.sh), Python's run on the venv of tools/python/venv.sh with the SDK
 *       installed by tools/python/sdk.sh
 *   anything else
 *       the CLI, in the example's folder: `stack init dev`, `config set vmapi:baseUrl <url>`,
 *       `stack output`, `stack rm dev`, ...
 *
 * The examples are ordinary Pulumi projects, but Go and Python programs cannot run the usual way
 * here (no language host for either can be built or downloaded), so the runners host the same
 * program functions as Automation API inline programs. The environment is the one
 * `npm run pulumi` uses (tools/pulumi/environment.ts: backend, PULUMI_HOME and passphrase in
 * .vmapi/), with the CLI first on PATH, where the Automation API looks for it.
 */
import { spawnSync } from "child_process";
import * as path from "path";
import { ensureFreshBuild } from "../freshBuild";
import { restartIfRecorded, WORKDIR } from "../localEmulator";
import { installCheckoutPlugin } from "../pulumi/checkoutPlugin";
import { pulumiEnvironment } from "../pulumi/environment";
import { pulumiCli, runPulumi } from "../pulumi/main";
import { exitCodeOf, runCli } from "../pulumi/processes";

const REPO = path.resolve(__dirname, "..", "..");

/** The commands the examples' own programs run; the CLI runs any other. */
export const PROGRAM_COMMANDS = ["up", "preview", "refresh", "destroy"] as const;

/** The languages with an example. */
export const LANGUAGES = ["go", "python", "java"] as const;
export type Language = (typeof LANGUAGES)[number];
/** The languages whose example is hosted by an Automation API runner (no language host for them here). */
type AutomationLanguage = Exclude<Language, "java">;

/** The folder of a language's example. */
export function exampleDir(language: Language): string {
  return path.join(REPO, "examples", language);
}

/**
 * The program folder to run instead of the example's (`VMAPI_PROGRAM_DIR`), and the Python with
 * `pulumi` and `pulumi_vmapi` installed to run it on instead of the repository's venv and SDK
 * (`VMAPI_PYTHON`): the real-engine tests run other programs, and the SDK's wheel, this way.
 */
function overrides(language: Language): { dir: string; python?: string } {
  const dir = process.env.VMAPI_PROGRAM_DIR || exampleDir(language);
  return { dir: path.resolve(dir), python: process.env.VMAPI_PYTHON || undefined };
}

/** Runs `bash <script> [args]` and returns the path it prints (its progress goes to stderr). */
function printedPath(script: string, ...args: string[]): string {
  const found = spawnSync("bash", [path.join(REPO, script), ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  if (found.status !== 0) throw new Error(`bash ${script} failed (exit ${found.status})`);
  return found.stdout.trim();
}

/** The Python runner: hosts the program of the folder it runs in (its __main__.py's function). */
export const PYTHON_RUNNER = path.join(REPO, "tools", "examples", "runner", "runner.py");

/** The example's program, hosted by its runner, as a command line and the environment it adds. */
export function exampleProgram(
  language: AutomationLanguage,
  dir = exampleDir(language),
  python?: string,
): { command: string[]; env: NodeJS.ProcessEnv } {
  if (language === "go") return { command: [printedPath("tools/examples/go.sh", dir)], env: {} };
  if (python) return { command: [python, PYTHON_RUNNER], env: {} };
  const venv = printedPath("tools/python/venv.sh");
  const site = printedPath("tools/python/sdk.sh");
  const pythonPath = [site, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter);
  return { command: [venv, PYTHON_RUNNER], env: { PYTHONPATH: pythonPath } };
}

/**
 * The example program's arguments: its flags first, then the command (Go's flag parsing stops at
 * the first argument that is not a flag, so `up --stack dev` must reach it as `--stack dev up`).
 */
export function programArgs(args: readonly string[], commandAt: number): string[] {
  return [...args.slice(0, commandAt), ...args.slice(commandAt + 1), args[commandAt]];
}

/** Runs one command line of an example; resolves with the exit code to exit with. */
export async function runExample(language: Language, args: string[]): Promise<number> {
  if (language === "java")
    return runPulumi(["--program", exampleDir(language), ...args], exampleDir(language));
  const { dir, python } = overrides(language);
  ensureFreshBuild();
  const cli = pulumiCli();
  const env = pulumiEnvironment(WORKDIR, dir, cli);
  env.PATH = [path.dirname(cli), env.PATH ?? ""].join(path.delimiter);
  installCheckoutPlugin(cli, env);
  const commandAt = args.findIndex((arg) => !arg.startsWith("-"));
  const command = args[commandAt];
  if (!(PROGRAM_COMMANDS as readonly string[]).includes(command)) {
    return exitCodeOf(await runCli(cli, args, dir, env));
  }
  await restartIfRecorded((line) => console.error(line));
  const program = exampleProgram(language, dir, python);
  const [bin, ...rest] = program.command;
  const exit = await runCli(bin, [...rest, ...programArgs(args, commandAt)], dir, { ...env, ...program.env });
  return exitCodeOf(exit);
}

if (require.main === module) {
  const [language, ...args] = process.argv.slice(2);
  if (!(LANGUAGES as readonly string[]).includes(language) || args.length === 0) {
    console.error(`usage: main.ts ${LANGUAGES.join("|")} <command> [args]`);
    process.exit(2);
  }
  runExample(language as Language, args).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
