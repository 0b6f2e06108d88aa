/**
 * Shared pieces of the benchmarks: one machine's inputs, emulator request counts per route, and
 * the clocks the provider's client is given (manual: every sleep advances the emulator; scaled:
 * real sleeps shortened by the emulator's time scale).
 */
import { viaSettings, type ViaSettings } from "../test/kit/providers";
import * as path from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../src/emulator";
import { providerContext, type ProviderContext } from "../src/provider/account/context";
import { machineProvider } from "../src/provider/machine/machineProvider";

export { MACHINE_INPUTS, createRequest } from "./machineInputs";

/** The no-op baseline program of benchmarks 4, 5 and 6 (its settings are described in it). */
export const NOOP_PROGRAM = path.join(__dirname, "programs", "noop");

/** What each resource of a NOOP_PROGRAM stack carries and does, beyond the stack's `count`. */
export interface NoopSettings {
  /** Extra properties, registered with stack traces off as this package's resources register. */
  props?: number;
  /** Each create waits this long. */
  createMs?: number;
  /** Each read waits this long. */
  readMs?: number;
  /** Its plugin loads zod and axios at its first call. */
  loadStack?: boolean;
}

/** NOOP_PROGRAM's stack config for `settings`. */
export function noopConfig(settings: NoopSettings): Record<string, string> {
  const { props = 0, createMs = 0, readMs = 0, loadStack = false } = settings;
  return {
    ...(props > 0 ? { props: String(props), quiet: "true" } : {}),
    ...(createMs > 0 ? { createMs: String(createMs) } : {}),
    ...(readMs > 0 ? { readMs: String(readMs) } : {}),
    ...(loadStack ? { loadStack: "true" } : {}),
  };
}

/** API requests per route template, as `GET /_emulator/state` counts them. */
export type RouteCounts = Record<string, number>;

/** The emulator's request counts so far. */
export async function requestCounts(url: string): Promise<RouteCounts> {
  const res = await fetch(`${url}/_emulator/state`);
  if (!res.ok) throw new Error(`GET /_emulator/state: ${res.status}`);
  return ((await res.json()) as { requestCounts: RouteCounts }).requestCounts;
}

/** Counts made after `before` was taken, non-zero routes only. */
export function countsSince(before: RouteCounts, after: RouteCounts): RouteCounts {
  const delta: RouteCounts = {};
  for (const [route, n] of Object.entries(after)) {
    const d = n - (before[route] ?? 0);
    if (d > 0) delta[route] = d;
  }
  return delta;
}

/** Sum of per-route counts. */
export function totalOf(counts: RouteCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** POST to a control endpoint of an emulator (in-process or child). */
export async function control(url: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${url}/_emulator/${path}`, {
    method: "POST",
    // Every control POST declares JSON, even without a body (the emulator refuses any other).
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST /_emulator/${path}: ${res.status} ${await res.text()}`);
}

/** An in-process emulator on loopback with a manual clock, silent. */
export function startManualEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, host: "127.0.0.1", clock: "manual", log: () => undefined, ...options });
}

/** A clock the provider's clients see, and the Machine implementation built on it. */
export interface BenchClock {
  now(): number;
  machines: ViaSettings<typeof machineProvider>;
}

/** The Machine implementation through the TypeScript door on `timing`, progress lines dropped (a context of its own, no globals). */
function machinesOn(timing: ProviderContext["timing"]) {
  const context = providerContext({ timing, progress: () => undefined });
  return viaSettings(machineProvider, context);
}

/**
 * Every client the provider builds sleeps by advancing `emu`'s manual clock, reads time from it,
 * and uses jitter 0.5 (the exact polling schedule), so counts are the same on every run.
 */
export function useManualClock(emu: RunningEmulator): BenchClock {
  const machines = machinesOn({
    sleep: async (ms: number) => emu.advance(ms),
    now: () => emu.now(),
    random: () => 0.5,
  });
  return { now: () => emu.now(), machines };
}

/**
 * Every client the provider builds sleeps for `scale` × the delay it asks for, and reads time
 * that runs 1/scale as fast as the wall clock: the provider's own polling policy, replayed at
 * the emulator's time scale. Jitter stays random, as in a real run.
 */
export function useScaledClock(scale: number): BenchClock {
  const origin = Date.now();
  const now = () => origin + (Date.now() - origin) / scale;
  const machines = machinesOn({
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms * scale)),
    now,
  });
  return { now, machines };
}

/** The provider's clients as in production: real sleeps, real time, random jitter. */
export function useRealClock(): BenchClock {
  return { now: Date.now, machines: machinesOn({}) };
}

/** Milliseconds `fn` took on the wall clock, with its value. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Rounds to `digits` decimals (for results that are read by people). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping the order of results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
) {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
