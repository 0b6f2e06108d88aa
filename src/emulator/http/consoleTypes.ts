/**
 * What the web console (`/_console/`) receives from the emulator: the wire between
 * consoleServer.ts and the page (`console/`), written once and imported by both (the page
 * imports types only). Everything here is a projection of the store the API serves; nothing
 * holds an API key or a delegation token, and every string is data to be shown as text.
 */
import type { MachineState } from "../../contract/constants";
import type { Machine, MachineEvent, Network, Template } from "../../contract/schemas";
import type { FaultCounts, FaultRule } from "../traffic/faults";
import type { RateLimitView } from "../traffic/rateLimit";
import type { RequestEntry } from "../traffic/requestLog";

export type { RequestEntry, RequestMark } from "../traffic/requestLog";

/** Sent once per connection, first: what does not change while the emulator runs. */
export interface ConsoleMeta {
  /** The API's route templates, for the fault form. */
  routes: string[];
  /** How many requests the emulator keeps for the console. */
  requestLogCapacity: number;
}

/** Sent every tick when it changed: small, cheap to build, changes with every request. */
export interface ConsoleStatus {
  now: string;
  clock: "real" | "manual";
  timeScale: number;
  /** Requests finished since the start (the seq of the newest). */
  requestsServed: number;
  faults: { rules: FaultRule[]; injected: FaultCounts };
  rateLimit: RateLimitView;
}

/** An account: a team, or an individual user (its own account). */
export interface ConsoleAccount {
  id: string;
  kind: "team" | "individual";
  name: string;
}

/** A machine as the console lists it. */
export interface ConsoleMachine {
  id: string;
  name: string;
  state: MachineState;
  region: string;
  machineType: string;
  publicIp: string | null;
  /** The account's id: the team's, or the user's for an individual account. */
  accountId: string;
  userId: string;
  scriptId: string | null;
  dtCreated: string;
  /** When its current state began. */
  stateSince: string;
  /** Set once destroyed: the console lists destroyed machines too, as the state dump does. */
  dtDestroyed: string | null;
}

/** A user; never the key (which the page is never sent). */
export interface ConsoleUser {
  id: string;
  email: string;
  firstname: string;
  lastname: string;
  teamId: string | null;
  role: "admin" | "member";
  accountId: string;
}

/** A startup script with the live machines it is attached to; its text comes on request. */
export interface ConsoleScript {
  id: string;
  name: string;
  description: string | null;
  ownerType: "user" | "team";
  ownerId: string;
  isEnabled: boolean;
  runOnce: boolean;
  dtCreated: string;
  machines: { machineId: string; machineName: string; dtLastRun: string | null }[];
}

/** A resource delegation, without its token. */
export interface ConsoleDelegation {
  id: number;
  userId: string;
  machineIds: string[];
  isEnabled: boolean;
  dtCreated: string;
  /** When its token stops working (4 h after dtCreated, times the time scale). */
  expires: string;
}

/** Sent when it may have changed (a request that writes, a lifecycle step, a delegation expiring). */
export interface ConsoleState {
  accounts: ConsoleAccount[];
  machines: ConsoleMachine[];
  users: ConsoleUser[];
  teams: { id: string; name: string; dtCreated: string }[];
  scripts: ConsoleScript[];
  delegations: ConsoleDelegation[];
  networks: (Network & { userId: string | null })[];
  templates: Template[];
  capacity: { region: string; machineType: string; available: boolean; failNextStarts: number }[];
  reservedIps: string[];
}

/** One machine in full: `GET /_console/machines/{machineId}`. */
export interface ConsoleMachineDetail {
  machine: Machine & { dtDestroyed: string | null };
  events: MachineEvent[];
  /** The states it entered, oldest first (bounded; empty for machines of an older state file). */
  history: { state: MachineState; at: string }[];
  accessUserIds: string[];
}

/** `GET /_console/state`: the same as the live stream, at once. */
export interface ConsoleSnapshot {
  meta: ConsoleMeta;
  status: ConsoleStatus;
  state: ConsoleState;
  requests: RequestEntry[];
}

/** The live stream's events (`/_console/events`), by name. */
export interface ConsoleEvents {
  meta: ConsoleMeta;
  status: ConsoleStatus;
  state: ConsoleState;
  /** The requests finished since the last `requests` event (at most the last REQUESTS_PER_TICK). */
  requests: RequestEntry[];
}
