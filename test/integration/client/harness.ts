/**
 * The client against the real emulator on loopback, with the emulator's manual clock: the
 * client's injected `sleep` advances the emulator's clock (the kit's VirtualClock), so waits and
 * backoffs cost no real time, and `now` reads the same virtual time.
 */
import { VmApiClient, type VmApiClientOptions } from "../../../src/client/client";
import type { RunningEmulator } from "../../../src/emulator";
import {
  startTestEmulator,
  type CapacityChange,
  type EmulatorStateDump,
  type FaultRuleInput,
} from "../../kit/emulator";
import { VirtualClock } from "../../kit/timing";
import { useStarted } from "../../kit/started";

export { machineRequest, PROVISIONING_MS } from "../../kit/machines";

/** One emulator plus helpers to build clients and drive the emulator's control endpoints. */
export interface Harness {
  emu: RunningEmulator;
  url: string;
  /** Virtual milliseconds slept by every client of this harness. */
  elapsed(): number;
  /** Every sleep of the harness's clients, in order. */
  sleeps: number[];
  /** A client with the given key (default: the individual account) on the virtual clock. */
  client(options?: Partial<VmApiClientOptions> & { key?: keyof RunningEmulator["keys"] }): VmApiClient;
  /** Advances the emulator's clock (and the virtual time) without a client. */
  advance(ms: number): void;
  /** `requestCounts` of the emulator's state dump, keyed like "GET /machines/getMachinePublic". */
  counts(): Promise<Record<string, number>>;
  /** The emulator's state dump. */
  state(): Promise<EmulatorStateDump>;
  /** Adds scripted fault rules. */
  faults(rules: FaultRuleInput[]): Promise<void>;
  /** Changes one region's capacity for one machine type. */
  capacity(change: CapacityChange): Promise<void>;
  close(): Promise<void>;
}

/** Starts an emulator with a manual clock on 127.0.0.1 and a free port. */
export async function startHarness(options: { timeScale?: number; seed?: unknown } = {}): Promise<Harness> {
  const emu = await startTestEmulator(options);
  const clock = new VirtualClock(emu);
  return {
    emu,
    url: emu.url,
    sleeps: clock.sleeps,
    elapsed: clock.now,
    advance: (ms) => clock.advance(ms),
    client: ({ key = "individual", ...rest } = {}) =>
      new VmApiClient({
        apiKey: emu.keys[key],
        baseUrl: emu.url,
        env: {},
        ...clock.timing(),
        ...rest,
      }),
    counts: async () => (await emu.control.state()).requestCounts,
    state: () => emu.control.state(),
    faults: async (rules) => void (await emu.control.addFaults(rules)),
    capacity: async (change) => void (await emu.control.capacity(change)),
    close: () => emu.close(),
  };
}

/** One harness for a test file (or describe block): started before its tests, closed after them. */
export function useHarness(options: { timeScale?: number; seed?: unknown } = {}): Harness {
  return useStarted(() => startHarness(options));
}

/** API request count differences between two `counts()` snapshots; zeros and control calls left out. */
export function countDelta(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [key, value] of Object.entries(after)) {
    const d = value - (before[key] ?? 0);
    if (d !== 0 && !key.includes("/_emulator")) delta[key] = d;
  }
  return delta;
}
