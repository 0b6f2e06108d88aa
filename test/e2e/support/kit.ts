/**
 * Shared set-up of the real-engine tests: an emulator in the test process on the real clock with
 * a small time scale, and stacks of the repository's programs run by the real CLI through
 * `npm run pulumi` (tools/pulumi). Each test file has its own workspace (backend, PULUMI_HOME).
 */
import * as fs from "fs";
import * as path from "path";
import {
  FinishedRequests,
  startTestEmulator,
  type EmulatorControl,
  type EmulatorStateDump,
} from "../../kit/emulator";
import { useStarted } from "../../kit/started";
import { VmApiClient, type VmApiClientOptions } from "../../../src/client/client";
import type { EmulatorOptions, RunningEmulator } from "../../../src/emulator";
import { REPO, type CliRun } from "./cli";
import { EngineStack, EngineWorkspace, type StackConfig } from "./engineStack";
import { childrenNamed, commandLine, descendantsOf } from "./processes";

/** Lifecycle durations × this: a 60 s provisioning takes 120 ms. The provider polls at the same scale. */
export const TIME_SCALE = 0.002;
export const EXAMPLES = path.join(REPO, "examples");
export const PROGRAMS = path.join(REPO, "test", "e2e", "programs");

/**
 * Every folder directly under `root`, sorted by name, each with whether it holds `file`. None is
 * left out for lacking the file, so that a check of the list fails on a folder that does.
 */
export function subfolders(root: string, file: string): { name: string; has: boolean }[] {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      has: fs.statSync(path.join(root, name, file), { throwIfNoEntry: false })?.isFile() === true,
    }));
}

/** Starts an emulator for one test file: real clock, lifecycles at TIME_SCALE, unless `options` say otherwise. */
export function startE2eEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startTestEmulator({ clock: "real", timeScale: TIME_SCALE, ...options });
}

/** The config every stack of these tests starts with: the emulator, a key (secret), the poll scale. */
export function connectionConfig(emu: RunningEmulator, apiKey: string): StackConfig {
  return {
    "vmapi:baseUrl": emu.url,
    "vmapi:apiKey": { secret: apiKey },
    "vmapi:pollScale": String(TIME_SCALE),
  };
}

/**
 * Everything a test file needs: its emulator (with the requests it has finished, counted), its
 * workspace, and the stacks it made (removed at the end).
 */
export class E2eContext {
  readonly stacks: EngineStack[] = [];
  private constructor(
    readonly emu: RunningEmulator,
    readonly finished: FinishedRequests,
    readonly workspace: EngineWorkspace,
    readonly timeScale: number = TIME_SCALE,
  ) {}

  /**
   * `options`: e.g. `{ clock: "manual" }` for machines that settle only when the test says so, or
   * a `timeScale` larger than TIME_SCALE, which is also the poll scale of every stack made here
   * (it keeps the engine's own time small beside the API's, as it is against a real API).
   */
  static async start(options: EmulatorOptions = {}): Promise<E2eContext> {
    const timeScale = options.timeScale ?? TIME_SCALE;
    const finished = new FinishedRequests();
    const log = (line: string) => {
      finished.log(line);
      options.log?.(line);
    };
    const emu = await startE2eEmulator({ ...options, log });
    return new E2eContext(emu, finished, new EngineWorkspace(), timeScale);
  }

  /** A new stack of `program` connected to this emulator with `apiKey`, plus `config`; `name` as EngineStack.create. */
  async stack(
    program: string,
    apiKey: string,
    config: StackConfig = {},
    name?: string,
  ): Promise<EngineStack> {
    const stack = await EngineStack.create(
      this.workspace,
      program,
      { ...connectionConfig(this.emu, apiKey), "vmapi:pollScale": String(this.timeScale), ...config },
      name,
    );
    this.stacks.push(stack);
    return stack;
  }

  /** A stack of `program` under the individual key, with the team admin's key as account `team` (a secret). */
  async twoAccountStack(program: string, config: StackConfig = {}): Promise<EngineStack> {
    const stack = await this.stack(program, this.emu.keys.individual, config);
    await stack.ok([
      "config",
      "set",
      "--secret",
      "--path",
      "vmapi:accounts.team.apiKey",
      this.emu.keys.teamAdmin,
    ]);
    return stack;
  }

  /** The emulator's state dump. */
  emulator(): Promise<EmulatorStateDump> {
    return this.emu.control.state();
  }

  /** How many requests of `route` ("POST /machines/createSingleMachinePublic") the emulator has received. */
  async received(route: string): Promise<number> {
    return (await this.emulator()).requestCounts[route] ?? 0;
  }

  /** A client of the test's own (not the stacks'): the individual key unless `options` say otherwise. */
  client(options: Partial<VmApiClientOptions> = {}): VmApiClient {
    return new VmApiClient({ apiKey: this.emu.keys.individual, baseUrl: this.emu.url, ...options });
  }

  /** No fault rule armed and nothing held: what a test that failed half-way may have left. */
  async clear(): Promise<void> {
    await this.emu.control.clearFaults();
    await this.emu.control.release();
  }

  /** Removes the stacks (and their config files in the programs' folders), the workspace, the emulator. */
  async close(): Promise<void> {
    for (const stack of this.stacks) await stack.remove();
    this.workspace.dispose();
    await this.emu.close();
  }
}

export { liveMachines } from "../../kit/emulator";

/**
 * The context of one test file (or describe block): started before its tests, cleared after each
 * (a test that failed half-way leaves no fault armed and nothing held for the next one) and
 * closed after them. What it returns stands for the context from the block's `beforeAll` on.
 */
export function useE2eContext(options: EmulatorOptions = {}): E2eContext {
  const context = useStarted(() => E2eContext.start(options));
  afterEach(() => context.clear());
  return context;
}

/**
 * Until the emulator holds `count` requests (a fault rule's `hold`), however long the engine takes
 * to send them on a busy machine (the test's own timeout bounds the wait); fails with the CLI's
 * output if `run` ends first.
 */
export async function untilHeld(control: EmulatorControl, run: Promise<CliRun>, count = 1): Promise<void> {
  let ended: CliRun | undefined;
  void run.then((done) => (ended = done));
  while ((await control.held()).length < count) {
    if (ended)
      throw new Error(
        `the CLI ended before the API held ${count} request(s):\n${ended.stdout}\n${ended.stderr}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * An `up` of `stack` whose plugin is SIGKILLed once the emulator holds a request (a fault rule's
 * `hold`): the plugin is the process below the CLI whose command line holds `plugin`
 * ("dynamic-provider", "native/main.js"). The run fails and the stack records nothing; what the
 * API has is what it had at the kill, since nothing the plugin sent after the held request was
 * answered.
 */
export async function upWithPluginKilled(
  ctx: E2eContext,
  stack: EngineStack,
  plugin: string,
): Promise<CliRun> {
  let wrapper = 0;
  const up = stack.cli(["up", "--yes", "--skip-preview"], { onSpawn: (pid) => (wrapper = pid) });
  await untilHeld(ctx.emu.control, up);
  const [cli] = childrenNamed(wrapper, "pulumi");
  const pid = cli === undefined ? undefined : descendantsOf(cli).find((p) => commandLine(p).includes(plugin));
  expect(pid).toBeDefined();
  process.kill(pid!, "SIGKILL");
  const killed = await up;
  expect(killed.code).not.toBe(0);
  expect(await stack.resources()).toEqual([]);
  return killed;
}

/**
 * Until `condition` holds, polled every 20 ms; fails naming `what` once `limitMs` have passed on
 * the wall clock since the call, however long each `condition` takes (a state dump on a busy
 * machine can take longer than the pauses between them).
 */
export async function until(
  condition: () => Promise<boolean> | boolean,
  what: string,
  limitMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() >= deadline) throw new Error(`timed out waiting for ${what} (${limitMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
