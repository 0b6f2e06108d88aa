/**
 * A Go or Python program hosted inline by its Automation API runner (tools/examples/runner), run
 * in a PlainCli workspace as a user of the plugin's release runs it: the runner started directly,
 * with the workspace's environment (its PATH one folder holding only the `pulumi` the runner
 * calls, so no `node` anywhere), in a copy of the program's folder. The engine finds the plugin
 * only where Pulumi installs plugins, under the workspace's PULUMI_HOME, from the version the
 * program's SDK asks for; or downloads it there itself.
 */
import { spawnSync } from "child_process";
import * as path from "path";
import { exampleProgram } from "../../../tools/examples/main";
import { REPO, runCommand, type CliRun } from "./cli";
import type { ProgramSummary } from "./languageExample";
import type { PlainCli, PlainStack } from "./plainCli";

/** The languages whose programs a runner hosts. */
export type HostedLanguage = "go" | "python";

/**
 * The Python of a fresh venv holding the SDK's wheel, with `pulumi` and its other dependencies
 * resolved by pip from the package index (tools/python/packageVenv.sh, cached: a minute or more
 * the first time, so a `beforeAll` with a bound of its own calls it).
 */
export function packageVenvPython(end: "lowest" | "newest" = "newest"): string {
  const script = path.join(REPO, "tools", "python", "packageVenv.sh");
  const run = spawnSync("bash", [script, end], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (run.status !== 0) throw new Error(`bash ${script} ${end} exited ${run.status}`);
  return run.stdout.trim();
}

/** One run of the program: what it printed, and its summary (the runner's `--json`). */
export interface HostedRun extends CliRun {
  summary: ProgramSummary;
}

/** A stack of a hosted program in a PlainCli workspace. */
export class HostedProgram {
  private constructor(
    readonly stack: PlainStack,
    private readonly command: string[],
  ) {}

  /**
   * A copy of `source` in `cli`'s workspace and a new stack of it with `config`. Go: the program
   * of `source` built with its runner (tools/examples/go.sh; cached). Python: `python` is the
   * interpreter that has `pulumi` and `pulumi_vmapi` installed (a venv of the SDK's wheel).
   */
  static async create(
    cli: PlainCli,
    language: HostedLanguage,
    source: string,
    config: Record<string, string | { secret: string }>,
    python?: string,
  ): Promise<HostedProgram> {
    if (language === "python" && python === undefined) throw new Error("a Python program needs its python");
    const { command } = exampleProgram(language, source, python);
    const stack = await cli.stack(cli.program(source), config);
    return new HostedProgram(stack, command);
  }

  /** `up`, `preview` or `destroy` by the runner, in the program's copy; never rejects for a failure. */
  async run(operation: "up" | "preview" | "destroy"): Promise<HostedRun> {
    const [bin, ...rest] = this.command;
    const run = await runCommand(bin, [...rest, "--stack", this.stack.name, "--json", operation], {
      cwd: this.stack.program,
      env: this.stack.cli.env,
    });
    const last = run.stdout.trim().split("\n").pop() ?? "";
    try {
      return { ...run, summary: JSON.parse(last) as ProgramSummary };
    } catch {
      throw new Error(
        `${operation}: no summary (exit ${run.code})\n${run.stdout}\n--- stderr\n${run.stderr}`,
      );
    }
  }
}

/** Fails with what the run printed unless the runner's operation succeeded. */
export function expectHostedSucceeded(run: HostedRun): HostedRun {
  if (run.code !== 0 || run.summary.result !== "succeeded") {
    throw new Error(
      `expected ${run.summary.command} to succeed, got exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`,
    );
  }
  return run;
}
