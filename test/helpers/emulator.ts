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

/** Starts an emulator for a test: port 0, manual clock, silent unless `log` is given. */
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
  requestCounts: Record<string, number>;
  [key: string]: unknown;
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
