/**
 * One stack of one program on the real engine, in a workspace of its own (file backend,
 * PULUMI_HOME and the wrapper's .vmapi folder in a temporary directory), so test files run in
 * parallel without sharing anything but the repository's programs.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { randomBytes } from "crypto";
import { runWrapper, type CliOptions, type CliRun } from "./cli";

/** The variables that choose the `pulumi` CLI (tools/pulumi-cli/build.sh). */
const CLI_CHOICE = ["VMAPI_PULUMI", "VMAPI_CACHE_DIR"];

/** A private backend, PULUMI_HOME and passphrase for the stacks of one test file. */
export class EngineWorkspace {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;

  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-e2e-"));
    const env: NodeJS.ProcessEnv = { ...process.env };
    // npm sets INIT_CWD to where `npm test` was typed; the wrapper would take it as the program folder.
    delete env.INIT_CWD;
    // The API's settings come from each stack's config only; the CLI's choice (VMAPI_PULUMI, as
    // .ci/run sets it for the lowest supported CLI) and its cache stay.
    for (const key of Object.keys(env))
      if ((key.startsWith("VMAPI_") || key.startsWith("PAPERSPACE_")) && !CLI_CHOICE.includes(key))
        delete env[key];
    fs.mkdirSync(path.join(this.dir, "backend"));
    Object.assign(env, {
      PULUMI_BACKEND_URL: `file://${path.join(this.dir, "backend")}`,
      PULUMI_HOME: path.join(this.dir, "home"),
      PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
      VMAPI_WORKDIR: path.join(this.dir, "vmapi"),
    });
    this.env = env;
  }

  /** Runs the wrapper with this workspace's environment. */
  run(args: string[], options: Partial<CliOptions> = {}): Promise<CliRun> {
    return runWrapper(args, { ...options, env: { ...this.env, ...options.env } });
  }

  /** Removes the workspace (its stacks' config files live in the programs' folders: see EngineStack.remove). */
  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Config values of a stack: strings are plain, `{ secret }` values are stored encrypted. */
export type StackConfig = Record<string, string | { secret: string }>;

/** A stack of `programDir`, created with `config`; every command is scoped to it. */
export class EngineStack {
  private constructor(
    readonly workspace: EngineWorkspace,
    readonly programDir: string,
    readonly name: string,
  ) {}

  /** `stack init` with `name` (default: a unique one), then the config. */
  static async create(
    workspace: EngineWorkspace,
    programDir: string,
    config: StackConfig,
    name = `t${randomBytes(4).toString("hex")}`,
  ): Promise<EngineStack> {
    const stack = new EngineStack(workspace, programDir, name);
    const init = await workspace.run(["--program", programDir, "stack", "init", name]);
    if (init.code !== 0) throw new Error(`pulumi stack init ${name} exited ${init.code}\n${init.stderr}`);
    await stack.setConfig(config);
    return stack;
  }

  /** Sets config values in one CLI call. */
  async setConfig(config: StackConfig): Promise<void> {
    const args = Object.entries(config).flatMap(([key, value]) =>
      typeof value === "string" ? ["--plaintext", `${key}=${value}`] : ["--secret", `${key}=${value.secret}`],
    );
    if (args.length > 0) await this.ok(["config", "set-all", ...args]);
  }

  /** Removes config keys. */
  async removeConfig(...keys: string[]): Promise<void> {
    for (const key of keys) await this.ok(["config", "rm", key]);
  }

  /** Any command, scoped to this program and stack. */
  cli(args: string[], options: Partial<CliOptions> = {}): Promise<CliRun> {
    return this.workspace.run(["--program", this.programDir, ...args, "--stack", this.name], options);
  }

  /** A command that must succeed. */
  async ok(args: string[], options: Partial<CliOptions> = {}): Promise<CliRun> {
    const run = await this.cli(args, options);
    if (run.code !== 0) {
      throw new Error(`pulumi ${args.join(" ")} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    }
    return run;
  }

  up(...extra: string[]): Promise<CliRun> {
    return this.cli(["up", "--yes", "--skip-preview", ...extra], { events: true });
  }
  preview(...extra: string[]): Promise<CliRun> {
    return this.cli(["preview", ...extra], { events: true });
  }
  refresh(...extra: string[]): Promise<CliRun> {
    return this.cli(["refresh", "--yes", "--skip-preview", ...extra], { events: true });
  }
  destroy(...extra: string[]): Promise<CliRun> {
    return this.cli(["destroy", "--yes", "--skip-preview", ...extra], { events: true });
  }

  /** `pulumi stack output --json` (secrets shown as "[secret]" unless `showSecrets`). */
  async outputs(showSecrets = false): Promise<Record<string, unknown>> {
    const run = await this.ok(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])]);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }

  /** `pulumi stack export`: the deployment as the backend stores it (secrets encrypted). */
  async export(): Promise<StackDeployment> {
    const run = await this.ok(["stack", "export"]);
    return JSON.parse(run.stdout) as StackDeployment;
  }

  /** The custom resources of this stack's state (providers and the stack left out). */
  async resources(): Promise<StateResource[]> {
    const deployment = await this.export();
    return (deployment.deployment.resources ?? []).filter(
      (r) => r.custom && !r.type.startsWith("pulumi:providers:"),
    );
  }

  /** The stack's files in the backend (for reading what is stored in raw form). */
  stateFiles(): string[] {
    const root = path.join(this.workspace.dir, "backend", ".pulumi");
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.includes(this.name)) found.push(full);
      }
    };
    if (fs.existsSync(root)) walk(root);
    return found;
  }

  /** Deletes the stack and its config file in the program's folder (`stack rm` does both). */
  async remove(): Promise<void> {
    await this.cli(["stack", "rm", "--yes", "--force"]);
    fs.rmSync(path.join(this.programDir, `Pulumi.${this.name}.yaml`), { force: true });
  }
}

/** The part of `pulumi stack export` the tests read. */
export interface StackDeployment {
  version: number;
  deployment: {
    resources?: StateResource[];
    pending_operations?: Array<{ type: string; resource: StateResource }>;
  };
}

/** One resource as the state holds it. */
export interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  initErrors?: string[];
}
