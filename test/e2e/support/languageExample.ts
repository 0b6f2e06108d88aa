/**
 * The Go and Python quickstarts (examples/go, examples/python) run as a user runs them:
 * `npm run example:<language> -- <command>` (tools/examples/main.ts), which runs the example's
 * Automation API program for up/preview/refresh/destroy and the CLI for anything else, in a
 * workspace of the test file's own (EngineWorkspace: backend, PULUMI_HOME, passphrase).
 */
import { spawn, spawnSync } from "child_process";
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { REPO } from "./cli";
import type { EngineWorkspace, StackConfig, StateResource } from "./engineStack";

const RUNNER = path.join(REPO, "tools", "examples", "main.ts");

export type Language = "go" | "python";

/** The project names of the examples' Pulumi.yaml (the namespace of their own config keys). */
export const PROJECTS: Record<Language, string> = {
  go: "vmapi-go-quickstart",
  python: "vmapi-python-quickstart",
};

/** One run of the runner. */
export interface ExampleRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** What the example's runner printed with --json after one command (tools/examples/runner). */
export interface ProgramSummary {
  command: string;
  stack: string;
  result: "succeeded" | "failed";
  changes: Record<string, number>;
  steps: Array<{ op: string; type: string; name: string; changed?: string[]; failed?: boolean }>;
  outputs?: Record<string, unknown>;
  errors?: string[];
}

/**
 * Builds or finds, once per machine, what the example's program needs (the Go build; Python's venv
 * and installed SDK): minutes the first time, so a test file does it in its `beforeAll` with a
 * bound of its own rather than inside its first test.
 */
export function prepareExample(language: Language, dir?: string, env: NodeJS.ProcessEnv = process.env): void {
  const scripts =
    language === "go"
      ? [["tools/examples/go.sh", ...(dir ? [dir] : [])]]
      : [["tools/python/venv.sh"], ["tools/python/sdk.sh"]];
  for (const [script, ...args] of scripts) {
    const run = spawnSync("bash", [path.join(REPO, script), ...args], {
      stdio: ["ignore", "ignore", "inherit"],
      env,
    });
    if (run.status !== 0) throw new Error(`bash ${script} exited ${run.status}`);
  }
}

/** Runs `npm run example:<language> -- <args>`'s script with `env`; never rejects for a non-zero exit. */
export async function runExample(
  language: Language,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 240_000,
): Promise<ExampleRun> {
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", RUNNER, language, ...args],
    {
      cwd: REPO,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // SIGTERM first: the runner passes it to the program and then stops the CLI and plugins it left,
  // which hold this run's output pipes open (a SIGKILL would leave them running).
  const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
  const killTimer = setTimeout(() => child.kill("SIGKILL"), timeoutMs + 15_000);
  const code = await new Promise<number>((resolve) =>
    child.once("close", (c, signal) => resolve(c ?? (signal ? 128 : 1))),
  );
  clearTimeout(timer);
  clearTimeout(killTimer);
  return { code, stdout, stderr };
}

/**
 * Another program than the language's example, run the same way (tools/examples/main.ts): its
 * folder, and for Python the interpreter that has `pulumi` and `pulumi_vmapi` installed.
 */
export interface OtherProgram {
  dir: string;
  python?: string;
  /** Its project's name (the namespace of its own config keys). */
  project: string;
  /** Variables its build needs besides the workspace's (a Go module proxy). */
  env?: NodeJS.ProcessEnv;
}

/** A stack of one language's example, created with `config`; every command is scoped to it. */
export class ExampleStack {
  private constructor(
    readonly workspace: EngineWorkspace,
    readonly language: Language,
    readonly name: string,
    readonly other?: OtherProgram,
  ) {}

  /** `stack init`, then the config, through the runner (the CLI in the example's folder). */
  static async create(
    workspace: EngineWorkspace,
    language: Language,
    config: StackConfig,
    name = `t${randomBytes(4).toString("hex")}`,
    program?: OtherProgram,
  ): Promise<ExampleStack> {
    const stack = new ExampleStack(workspace, language, name, program);
    await stack.ok(["stack", "init"]);
    await stack.setConfig(config);
    return stack;
  }

  /** Sets config values in one CLI call; a key without a namespace is the example project's. */
  async setConfig(config: StackConfig): Promise<void> {
    const args = Object.entries(config).flatMap(([key, value]) => {
      const full = key.includes(":") ? key : `${this.other?.project ?? PROJECTS[this.language]}:${key}`;
      return typeof value === "string"
        ? ["--plaintext", `${full}=${value}`]
        : ["--secret", `${full}=${value.secret}`];
    });
    if (args.length > 0) await this.ok(["config", "set-all", ...args]);
  }

  /** The example's program: `up`, `preview`, `refresh` or `destroy`, with its summary. */
  async program(
    command: "up" | "preview" | "refresh" | "destroy",
    timeoutMs?: number,
  ): Promise<ExampleRun & { summary: ProgramSummary }> {
    const run = await runExample(
      this.language,
      [command, "--stack", this.name, "--json"],
      this.env(),
      timeoutMs,
    );
    const last = run.stdout.trim().split("\n").pop() ?? "";
    let summary: ProgramSummary;
    try {
      summary = JSON.parse(last) as ProgramSummary;
    } catch {
      throw new Error(
        `${command}: no summary (exit ${run.code})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`,
      );
    }
    return { ...run, summary };
  }

  /** A CLI command scoped to this stack, which must succeed. */
  async ok(args: string[]): Promise<ExampleRun> {
    const run = await runExample(this.language, [...args, "--stack", this.name], this.env());
    if (run.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    return run;
  }

  /** The custom resources of this stack's state (providers left out). */
  async resources(): Promise<StateResource[]> {
    const exported = JSON.parse((await this.ok(["stack", "export"])).stdout) as {
      deployment: { resources?: StateResource[] };
    };
    return (exported.deployment.resources ?? []).filter(
      (r) => r.custom && !r.type.startsWith("pulumi:providers:"),
    );
  }

  /** Deletes the stack and its config file in the example's folder. */
  async remove(): Promise<void> {
    await runExample(this.language, ["stack", "rm", "--yes", "--force", "--stack", this.name], this.env());
    const dir = this.other?.dir ?? path.join(REPO, "examples", this.language);
    fs.rmSync(path.join(dir, `Pulumi.${this.name}.yaml`), { force: true });
  }

  /** The workspace's environment, with the other program's folder and Python when there is one. */
  private env(): NodeJS.ProcessEnv {
    if (!this.other) return this.workspace.env;
    const python = this.other.python ? { VMAPI_PYTHON: this.other.python } : {};
    return { ...this.workspace.env, ...this.other.env, VMAPI_PROGRAM_DIR: this.other.dir, ...python };
  }
}

/** Fails with what the run printed unless the program's command succeeded. */
export function expectSucceeded<T extends ExampleRun & { summary: ProgramSummary }>(run: T): T {
  if (run.code !== 0 || run.summary.result !== "succeeded") {
    throw new Error(
      `expected ${run.summary.command} to succeed, got exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`,
    );
  }
  return run;
}
