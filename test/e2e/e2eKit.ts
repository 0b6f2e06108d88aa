/**
 * Shared set-up of the end-to-end tests: an emulator on the real clock with a small time scale
 * (a 60 s provisioning takes 120 ms; the provider's own polling, from 1 s, dominates), and one
 * stack per program run through the program runner.
 */
import * as path from "path";
import { startTestEmulator, state, type EmulatorStateDump } from "../helpers/emulator";
import { secret, type ConfigValue } from "../../tools/engine/providerHarness";
import {
  emptyStackState,
  runProgram,
  type RunOptions,
  type RunResult,
  type StackState,
} from "../../tools/engine/programRunner";
import type { RunningEmulator } from "../../src/emulator";

// A run costs about 2 s of process start-up plus about 1 s per machine wait; leave room on a busy machine.
jest.setTimeout(60_000);

/** Lifecycle durations × this; the provider's first poll (1 s) sees every state settled. */
export const TIME_SCALE = 0.002;
export const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");
export const PROGRAMS = path.join(__dirname, "programs");

/** Starts an emulator for one test file. */
export function startE2eEmulator(): Promise<RunningEmulator> {
  return startTestEmulator({ clock: "real", timeScale: TIME_SCALE });
}

/** One stack of one program against an emulator. */
export interface E2eStack {
  readonly stackState: StackState;
  /** Runs the program; `config` adds to (or overrides) the stack's config for this run. */
  run(mode: RunOptions["mode"], config?: Record<string, ConfigValue>): Promise<RunResult>;
  /** The emulator's state dump. */
  emulator(): Promise<EmulatorStateDump>;
}

/** A new stack (empty state) for `program`, with `vmapi:apiKey` (secret) and `vmapi:baseUrl` set. */
export function newStack(
  emu: RunningEmulator,
  program: string,
  apiKey: string,
  config: Record<string, ConfigValue> = {},
  stack = "dev",
): E2eStack {
  const stackState = emptyStackState();
  // The provider's polling runs at the emulator's speed, as `npm run demo` sets it.
  const base = {
    "vmapi:apiKey": secret(apiKey),
    "vmapi:baseUrl": emu.url,
    "vmapi:pollScale": String(TIME_SCALE),
    ...config,
  };
  return {
    stackState,
    run: (mode, extra = {}) =>
      runProgram(program, { stackState, mode, stack, config: { ...base, ...extra } }),
    emulator: () => state(emu.url),
  };
}

/** Fails with the run's error and logs when it did not succeed. */
export function expectSuccess(result: RunResult): RunResult {
  if (result.error !== undefined) {
    throw new Error(`${result.error}\nlogs: ${JSON.stringify(result.logs, null, 2)}`);
  }
  return result;
}

/** Machines the emulator still has (not destroyed). */
export function liveMachines(dump: EmulatorStateDump): EmulatorStateDump["machines"] {
  return dump.machines.filter((m) => m.dtDestroyed === null);
}
