/**
 * The emulator of a test: in process, on a free port, on a manual clock and silent, with the
 * emulator's own typed control client (`emu.control`: state dump, faults and held requests,
 * capacity, clock, rate limit, reset). No test fetches `/_emulator/...` by hand.
 */
import {
  emulatorControl,
  startEmulator,
  type EmulatorControl,
  type EmulatorOptions,
  type EmulatorStateDump,
  type RunningEmulator,
} from "../../src/emulator";

export type {
  CapacityChange,
  EmulatorControl,
  EmulatorStateDump,
  FaultRuleInput,
  HeldRequest,
  RateLimitView,
} from "../../src/emulator";

/**
 * Starts an emulator for a test: port 0, manual clock, silent unless `log` is given; every other
 * option as `startEmulator` takes it (e.g. `rateLimit`, `rateBurst`, `timeScale`, `clock`).
 */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, host: "127.0.0.1", clock: "manual", log: () => undefined, ...options });
}

/** The control client of an emulator this process did not start (a CLI child, a restarted one). */
export function control(url: string): EmulatorControl {
  return emulatorControl(url);
}

/**
 * The state dump without the counts requests change (`requestCounts`, `faultsInjected`, the rate
 * limit's served and refused): everything a refused request must leave as it was.
 */
export async function stateWithoutCounts(control: EmulatorControl): Promise<unknown> {
  const { requestCounts: _counts, faultsInjected: _faults, rateLimit, ...rest } = await control.state();
  return { ...rest, rateLimit: { rate: rateLimit.rate, burst: rateLimit.burst } };
}

/** Machines the emulator still has (not destroyed). */
export function liveMachines(dump: EmulatorStateDump): EmulatorStateDump["machines"] {
  return dump.machines.filter((m) => m.dtDestroyed === null);
}
