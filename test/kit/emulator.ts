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
import { useStarted } from "./started";

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

/**
 * One test emulator (as `startTestEmulator` starts it) for a test file or describe block: started
 * before its tests, closed after them.
 */
export function useTestEmulator(options: EmulatorOptions = {}): RunningEmulator {
  return useStarted(() => startTestEmulator(options));
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

/**
 * The requests an emulator is done with, per route ("POST /scripts/createScript"), counted from
 * its log (`log` is the emulator's option): answered, cut, or acted on after the client left. A
 * late or held request counts when it ends, where `requestCounts` counts it when it arrives, so
 * the two together say when the emulator has finished with everything it was sent.
 */
export class FinishedRequests {
  readonly #counts = new Map<string, number>();

  /** The emulator's `log` option: one line per request, `METHOD route status ms` (server.ts). */
  readonly log = (line: string): void => {
    const request = /^(\S+ \S+) \S+ \d+ms$/.exec(line);
    if (request) this.#counts.set(request[1], this.of(request[1]) + 1);
  };

  /** How many requests of `route` ("METHOD template") have finished. */
  of(route: string): number {
    return this.#counts.get(route) ?? 0;
  }

  /** True when every request of `routes` that `received` (a `requestCounts`) counts has finished. */
  caughtUp(received: Record<string, number>, routes: readonly string[]): boolean {
    return routes.every((route) => this.of(route) >= (received[route] ?? 0));
  }

  /**
   * Until the emulator behind `control` is done with every request of `routes` it received, late
   * ones included, so what it holds is final: events, not a length of time (the test's own
   * timeout bounds the wait). Its `requestCounts` then.
   */
  async settled(control: EmulatorControl, routes: readonly string[]): Promise<Record<string, number>> {
    for (;;) {
      const received = (await control.state()).requestCounts;
      if (this.caughtUp(received, routes)) return received;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Forgets every count (after the emulator's reset, which zeroes its `requestCounts`). */
  clear(): void {
    this.#counts.clear();
  }
}
