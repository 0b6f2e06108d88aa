/**
 * A thin wrapper for tests: an in-process emulator on a free port with a manual clock and no log
 * output, plus fetch helpers for the control endpoints.
 */
import {
  startEmulator,
  type EmulatorOptions,
  type FaultRule,
  type RunningEmulator,
} from "../../src/emulator";

/**
 * Starts an emulator for a test: port 0, manual clock, silent unless `log` is given; every other
 * option as `startEmulator` takes it (e.g. `rateLimit`, `rateBurst`).
 */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, host: "127.0.0.1", clock: "manual", log: () => undefined, ...options });
}

/** A scripted fault rule as sent to POST /_emulator/faults. */
export type FaultRuleInput = Partial<FaultRule>;

async function control<T>(url: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}/_emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /_emulator/${path}: ${response.status} ${text}`);
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

/** The loose shape of GET /_emulator/state. */
export interface EmulatorStateDump {
  now: string;
  machines: (Record<string, unknown> & { id: string; state: string; dtDestroyed: string | null })[];
  scripts: Record<string, unknown>[];
  users: Record<string, unknown>[];
  delegations: Record<string, unknown>[];
  accessGrants: { machineId: string; userId: string }[];
  capacity: Record<string, unknown>[];
  faults: FaultRule[];
  rateLimit: RateLimitState;
  requestCounts: Record<string, number>;
  [key: string]: unknown;
}

/** The rate limit and its counts, as GET /_emulator/rate-limit and the state dump show them. */
export interface RateLimitState {
  rate: number | null;
  burst: number | null;
  served: number;
  refused: number;
  /** Per caller: the key's user id (`delegation <id>`, `unknown key`, `no key`), never the key. */
  perKey: Record<string, { served: number; refused: number }>;
}

/** GET /_emulator/state. */
export function state(url: string): Promise<EmulatorStateDump> {
  return control(url, "GET", "state");
}

/** POST /_emulator/faults (appends rules). */
export function addFaults(url: string, rules: FaultRuleInput[]): Promise<{ rules: FaultRule[] }> {
  return control(url, "POST", "faults", { rules });
}

/** DELETE /_emulator/faults. */
export function clearFaults(url: string): Promise<void> {
  return control(url, "DELETE", "faults");
}

/** POST /_emulator/rate-limit: `rate` requests/s per key (null: off), `burst` (default: one second's worth). */
export function setRateLimit(
  url: string,
  body: { rate: number | null; burst?: number },
): Promise<RateLimitState> {
  return control(url, "POST", "rate-limit", body);
}

/** GET /_emulator/rate-limit. */
export function rateLimit(url: string): Promise<RateLimitState> {
  return control(url, "GET", "rate-limit");
}

/** POST /_emulator/clock/advance (manual clock only). */
export function advance(url: string, ms: number): Promise<{ now: string; mode: string }> {
  return control(url, "POST", "clock/advance", { ms });
}

/** POST /_emulator/reset. */
export function reset(url: string): Promise<void> {
  return control(url, "POST", "reset");
}

/** POST /_emulator/capacity. */
export function setCapacity(
  url: string,
  body: { region: string; machineType: string; available?: boolean; failNextStarts?: number },
): Promise<Record<string, unknown>> {
  return control(url, "POST", "capacity", body);
}
