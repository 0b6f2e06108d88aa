/**
 * A typed client of the emulator's control endpoints (`/_emulator/...`): state dump, reset,
 * faults and held requests, rate limit, clock, capacity, and a machine stopped or renamed out of band. Tests that run an emulator in another process (the
 * `vmapi-emulator` CLI, a stack's program) drive it through these calls rather than by hand;
 * it uses Node's global fetch, since the emulator sends no requests of its own through axios.
 */
import type { z } from "zod";
import type { CapacityRecord } from "./state/records";
import type { CapacityChange, ClockView, EmulatorStateDump } from "./http/controlTypes";
import type { FaultRule, FaultRuleSchema, HeldRequest } from "./traffic/faults";
import type { RateLimitView } from "./traffic/rateLimit";

export type { CapacityChange, ClockView, EmulatorStateDump } from "./http/controlTypes";
export type { RateLimitView, RateCounts } from "./traffic/rateLimit";
export type { HeldRequest } from "./traffic/faults";
export type { CapacityRecord } from "./state/records";

/** A scripted fault rule as `POST /_emulator/faults` takes it (`times` defaults to 1). */
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;

/** A rate-limit change: `rate` requests/s per key (null: off), `burst` (default: one second's worth). */
export interface RateLimitChange {
  rate: number | null;
  burst?: number;
}

/** A control call the emulator refused (400 on a bad body, 409 advancing a real clock). */
export class ControlError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path}: ${status} ${body}`);
    this.name = "ControlError";
  }
}

/** The control endpoints of the emulator at one base URL. */
export class EmulatorControl {
  /** `url`: the emulator's base URL, e.g. `RunningEmulator.url`. */
  constructor(readonly url: string) {}

  /** `GET /_emulator/state`: every record, request counts, faults and the rate limit. */
  state(): Promise<EmulatorStateDump> {
    return this.call("GET", "state");
  }

  /** `POST /_emulator/reset`: back to the seed; faults, counts and the rate limit as at start. */
  reset(): Promise<void> {
    return this.call("POST", "reset");
  }

  /** `GET /_emulator/faults`: the scripted rules still to fire. */
  async faults(): Promise<FaultRule[]> {
    return (await this.call<{ rules: FaultRule[] }>("GET", "faults")).rules;
  }

  /** `POST /_emulator/faults`: appends `rules`; answers every rule still to fire. */
  async addFaults(rules: FaultRuleInput[]): Promise<FaultRule[]> {
    return (await this.call<{ rules: FaultRule[] }>("POST", "faults", { rules })).rules;
  }

  /** `DELETE /_emulator/faults`: drops every scripted rule. */
  clearFaults(): Promise<void> {
    return this.call("DELETE", "faults");
  }

  /** `GET /_emulator/held`: the requests a `hold` rule holds now, in the order they came. */
  async held(): Promise<HeldRequest[]> {
    return (await this.call<{ requests: HeldRequest[] }>("GET", "held")).requests;
  }

  /** `POST /_emulator/held/release`: every held request goes on (a `hold: "all"` ends); answers them. */
  async release(): Promise<HeldRequest[]> {
    return (await this.call<{ released: HeldRequest[] }>("POST", "held/release")).released;
  }

  /** `GET /_emulator/rate-limit`: the limit and its counts per caller. */
  rateLimit(): Promise<RateLimitView> {
    return this.call("GET", "rate-limit");
  }

  /** `POST /_emulator/rate-limit`: changes the limit; every bucket starts full. */
  setRateLimit(change: RateLimitChange): Promise<RateLimitView> {
    return this.call("POST", "rate-limit", change);
  }

  /** `GET /_emulator/clock`: the emulator's time and clock mode. */
  clock(): Promise<ClockView> {
    return this.call("GET", "clock");
  }

  /** `POST /_emulator/clock/advance`: moves a manual clock `ms` forward (a real clock refuses). */
  advance(ms: number): Promise<ClockView> {
    return this.call("POST", "clock/advance", { ms });
  }

  /** `POST /_emulator/capacity`: creates or updates one region's entry for one machine type. */
  capacity(change: CapacityChange): Promise<CapacityRecord> {
    return this.call("POST", "capacity", change);
  }

  /**
   * `POST /_emulator/machines/{machineId}/stop`: stops the machine as its owner would outside any
   * program (what a `pulumi refresh` then finds); a ControlError with 409 where the API refuses a stop.
   */
  stopMachine(machineId: string): Promise<void> {
    return this.call("POST", `machines/${encodeURIComponent(machineId)}/stop`);
  }

  /** `POST /_emulator/machines/{machineId}/rename`: renames the machine out of band (the API's name rules). */
  renameMachine(machineId: string, machineName: string): Promise<void> {
    return this.call("POST", `machines/${encodeURIComponent(machineId)}/rename`, { machineName });
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}/_emulator/${path}`, {
      method,
      // Every control POST declares JSON, even without a body (the emulator refuses any other).
      headers: method === "GET" ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new ControlError(method, `/_emulator/${path}`, response.status, text);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }
}

/** The control client of the emulator at `url`. */
export function emulatorControl(url: string): EmulatorControl {
  return new EmulatorControl(url);
}
