/**
 * The `pulumi` CLI run as a user of the plugin's release runs it: directly (no `npm run pulumi`, no
 * Node process around it), in an environment made from nothing but what the test gives: its own
 * HOME, PULUMI_HOME, file backend and passphrase, and a PATH of one folder, empty or holding only
 * the CLI (for the Automation API runners, which call `pulumi`). No `node` is anywhere on that
 * PATH, so a plugin that needed Node could not start; the CLI finds Pulumi YAML's language host
 * beside itself (tools/pulumi-cli/yaml.sh, linked there as `npm run pulumi` does), and the plugin
 * only where Pulumi installs plugins, under PULUMI_HOME.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { randomBytes } from "crypto";
import { pulumiCli, yamlLanguageHost } from "../../../tools/pulumi/main";
import { runCommand, type CliOptions, type CliRun } from "./cli";

/** Options of one workspace. */
export interface PlainCliOptions {
  /**
   * Whether the engine may download plugins (automatic plugin acquisition): off unless asked, as
   * `npm run pulumi` has it, so that a missing plugin fails instead of being fetched.
   */
  acquisition?: boolean;
  /** More variables for every command (e.g. PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES). */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the PATH folder holds the CLI, as `pulumi` (a link): the Automation API runners of Go
   * and Python programs (support/hostedProgram.ts) call the `pulumi` they find on PATH.
   */
  cliOnPath?: boolean;
}

/** A workspace of its own for the CLI: everything it writes is under `dir`. */
export class PlainCli {
  private constructor(
    readonly cli: string,
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** A new workspace; finds (or builds) the CLI and Pulumi YAML's language host beside it. */
  static create(options: PlainCliOptions = {}): PlainCli {
    const cli = pulumiCli();
    yamlLanguageHost(cli);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-plain-"));
    for (const sub of ["home", "backend", "pulumi-home", "bin"]) fs.mkdirSync(path.join(dir, sub));
    if (options.cliOnPath) fs.symlinkSync(cli, path.join(dir, "bin", "pulumi"));
    const env: NodeJS.ProcessEnv = {
      HOME: path.join(dir, "home"),
      PATH: path.join(dir, "bin"),
      PULUMI_HOME: path.join(dir, "pulumi-home"),
      PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "plain-cli-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      ...(options.acquisition ? {} : { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" }),
      ...options.env,
    };
    return new PlainCli(cli, dir, env);
  }

  /** The plugins folder Pulumi installs into. */
  get pluginsDir(): string {
    return path.join(String(this.env.PULUMI_HOME), "plugins");
  }

  /** `pulumi <args>` in `cwd` (default: the workspace's folder). */
  run(args: string[], options: Partial<CliOptions> & { cwd?: string } = {}): Promise<CliRun> {
    return runCommand(this.cli, args, {
      ...options,
      cwd: options.cwd ?? this.dir,
      env: { ...this.env, ...options.env },
    });
  }

  /** A command that must succeed. */
  async ok(args: string[], options: Partial<CliOptions> & { cwd?: string } = {}): Promise<CliRun> {
    const run = await this.run(args, options);
    if (run.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    return run;
  }

  /** A copy of the program in `source` in a folder of this workspace (its stacks' files stay there). */
  program(source: string): string {
    const dir = fs.mkdtempSync(path.join(this.dir, "program-"));
    fs.cpSync(source, dir, { recursive: true });
    return dir;
  }

  /** `stack init` of a new stack in `program`, then its config (`{ secret }` values encrypted). */
  async stack(program: string, config: Record<string, string | { secret: string }>): Promise<PlainStack> {
    const name = `t${randomBytes(4).toString("hex")}`;
    await this.ok(["stack", "init", name], { cwd: program });
    const args = Object.entries(config).flatMap(([key, value]) =>
      typeof value === "string" ? ["--plaintext", `${key}=${value}`] : ["--secret", `${key}=${value.secret}`],
    );
    if (args.length > 0) await this.ok(["config", "set-all", "--stack", name, ...args], { cwd: program });
    return new PlainStack(this, program, name);
  }

  /** Removes the workspace. */
  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One stack of a PlainCli workspace; every command is scoped to it. */
export class PlainStack {
  constructor(
    readonly cli: PlainCli,
    readonly program: string,
    readonly name: string,
  ) {}

  /** Any command of this stack, with the engine's events. */
  run(args: string[]): Promise<CliRun> {
    return this.cli.run([...args, "--stack", this.name], { cwd: this.program, events: true });
  }

  up(): Promise<CliRun> {
    return this.run(["up", "--yes", "--skip-preview"]);
  }
  preview(...extra: string[]): Promise<CliRun> {
    return this.run(["preview", ...extra]);
  }
  destroy(): Promise<CliRun> {
    return this.run(["destroy", "--yes", "--skip-preview"]);
  }

  /** `pulumi stack output --json`. */
  async outputs(): Promise<Record<string, unknown>> {
    const run = await this.cli.ok(["stack", "output", "--json", "--stack", this.name], { cwd: this.program });
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }
}
