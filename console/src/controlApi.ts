/**
 * The page's calls: the control endpoints (`/_emulator/*`, the same that tests and the typed
 * EmulatorControl call, so every input is validated there, once) and the console's read-only
 * views (`/_console/*`). A refusal carries the emulator's own message, which names the field.
 */
import type { z } from "zod";
import type { ConsoleMachineDetail } from "../../src/emulator/http/consoleTypes";
import type { FaultRuleSchema } from "../../src/emulator/traffic/faults";
import type { RateLimitRequestSchema } from "../../src/emulator/traffic/rateLimit";

/** A fault rule as `POST /_emulator/faults` takes it. */
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;
/** A rate limit as `POST /_emulator/rate-limit` takes it. */
type RateLimitChange = z.input<typeof RateLimitRequestSchema>;

/** A call the emulator refused, with its message (e.g. `rules.0.status must be at most 599`). */
export class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "Refused";
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    // Every control POST declares JSON, even without a body (the emulator refuses any other).
    headers: method === "GET" ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Refused(response.status, refusalMessage(response.status, text));
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

function refusalMessage(status: number, text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return message;
  } catch {
    // Not the emulator's error body: say the status alone.
  }
  return `HTTP ${status}`;
}

const machinePath = (id: string, action: string) => `/_emulator/machines/${encodeURIComponent(id)}/${action}`;

/** What the console's controls do, each one control endpoint. */
export const controls = {
  addFault: (rule: FaultRuleInput) => call("POST", "/_emulator/faults", { rules: [rule] }),
  clearFaults: () => call("DELETE", "/_emulator/faults"),
  setRateLimit: (change: RateLimitChange) => call("POST", "/_emulator/rate-limit", change),
  advance: (ms: number) => call("POST", "/_emulator/clock/advance", { ms }),
  reset: () => call("POST", "/_emulator/reset"),
  stopMachine: (id: string) => call("POST", machinePath(id, "stop")),
  renameMachine: (id: string, machineName: string) =>
    call("POST", machinePath(id, "rename"), { machineName }),
};

/** One machine in full: events, state history, access. */
export function machineDetail(id: string): Promise<ConsoleMachineDetail> {
  return call("GET", `/_console/machines/${encodeURIComponent(id)}`);
}

/** A script's text. */
export async function scriptText(id: string): Promise<string> {
  return (await call<{ text: string }>("GET", `/_console/scripts/${encodeURIComponent(id)}/text`)).text;
}
