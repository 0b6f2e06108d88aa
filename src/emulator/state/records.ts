/**
 * The emulator's internal records: plain JSON-serializable data, so the whole state can be dumped
 * by `GET /_emulator/state` and written to the state file as is. Times are epoch milliseconds;
 * the wire views (views.ts) turn them into ISO strings.
 */
import type { MachineState } from "../../contract/constants";

/**
 * A record as the store lends it: read-only all the way down. A record changes only through an
 * operation of its collection (collection.ts), which marks the store changed, so a change is never
 * left out of the state file.
 */
export type Stored<T> = T extends readonly (infer U)[]
  ? readonly Stored<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Stored<T[K]> }
    : T;

/** Roles inside an account: the individual owner and a team administrator are both `admin`. */
export type Role = "admin" | "member";

/** A team account. */
export interface TeamRecord {
  id: string;
  name: string;
  dtCreated: number;
}

/** A user of an individual or team account. */
export interface UserRecord {
  id: string;
  email: string;
  firstname: string;
  lastname: string;
  dtCreated: number;
  /** null for an individual account. */
  teamId: string | null;
  role: Role;
  /** Users created through createSingleMachinePublic have no key (and their password is dropped). */
  apiKey: string | null;
}

/** A private network of an account in one region. */
export interface NetworkRecord {
  id: string;
  name: string;
  region: string;
  dtCreated: number;
  network: string;
  netmask: string;
  teamId: string | null;
  /** Owner on an individual account; null for a team network. */
  userId: string | null;
  /** Last host number handed out as a private address. */
  lastHost: number;
}

/** A template machines are created from; public when it has neither teamId nor userId. */
export interface TemplateRecord {
  id: string;
  name: string;
  label: string;
  os: string;
  /** Internal: decides whether a boot passes through serviceready. */
  agentType: string;
  dtCreated: number;
  teamId: string | null;
  userId: string | null;
  region: string | null;
}

/** One machine event; `pending` until its operation completes. */
export interface EventRecord {
  name: string;
  state: "pending" | "done" | "error";
  errorMsg: string;
  handle: string;
  dtCreated: number;
  dtModified: number;
  dtFinished: number | null;
}

/** The operation in flight: what the timed states lead to and which event finishes with it. */
export interface PendingOperation {
  eventHandle: string;
  /** provisioning only: boot when done (startOnCreate), else go off. */
  boot: boolean;
  /** Set when a capacity failure was drawn at request time: the boot ends off with this error. */
  failWith: string | null;
}

/** A stretch of time a machine was up (boot to off), for utilization. */
export interface RunInterval {
  from: number;
  to: number | null;
}

/** A state a machine entered, and when: one step of its state history. */
export interface StateChange {
  state: MachineState;
  at: number;
}

/** A machine with its lifecycle bookkeeping; `dtDestroyed` set once destroyed (kept for the state dump). */
export interface MachineRecord {
  id: string;
  internalId: number;
  name: string;
  machineType: string;
  size: number;
  billingType: string;
  templateId: string;
  os: string;
  agentType: string;
  region: string;
  /** null only when the account has no network in the region (possible with a custom seed). */
  networkId: string | null;
  privateIpAddress: string | null;
  /** From assignPublicIp; kept across stops. */
  staticPublicIp: string | null;
  /** Given at boot when dynamicPublicIp, released when the machine is off. */
  dynamicPublicIp: string | null;
  dynamicPublicIpEnabled: boolean;
  userId: string;
  teamId: string | null;
  scriptId: string | null;
  dtLastRun: number | null;
  dtCreated: number;
  dtDestroyed: number | null;
  shutdownTimeoutInHours: number;
  shutdownTimeoutForces: boolean;
  performAutoSnapshot: boolean;
  autoSnapshotFrequency: "hour" | "day" | "week" | null;
  autoSnapshotSaveCount: number | null;
  restorePointSnapshotId: string | null;
  restorePointFrequency: string | null;
  takeInitialSnapshot: boolean;
  /** Users granted access with setMachineAccess. */
  accessUserIds: string[];
  state: MachineState;
  /** When the current state began; timed states end at stateSince + duration. */
  stateSince: number;
  /**
   * The states it entered, oldest first (the last HISTORY_LIMIT of state/lifecycle.ts). Absent
   * from machines of a state file written before it was kept: their history starts at the next change.
   */
  history?: StateChange[];
  pending: PendingOperation | null;
  bootCount: number;
  /** Times the machine was up, for utilization. */
  runs: RunInterval[];
  /** Newest first. */
  events: EventRecord[];
}

/** A startup script, text included (never sent in script records). */
export interface ScriptRecord {
  id: string;
  ownerType: "user" | "team";
  ownerId: string;
  name: string;
  description: string | null;
  dtCreated: number;
  isEnabled: boolean;
  runOnce: boolean;
  text: string;
  /** Last run per machine id. */
  runs: Record<string, number>;
}

/** A resource delegation; its accessTokenId works as X-Api-Key for 4 hours. */
export interface DelegationRecord {
  id: number;
  machineIds: string[];
  isEnabled: boolean;
  accessTokenId: string;
  dtCreated: number;
  /** The user who created it; the token acts on their behalf. */
  userId: string;
}

/** Availability and seeded start failures of one machine type in one region. */
export interface CapacityRecord {
  region: string;
  machineType: string;
  available: boolean;
  /** The next N starts of this type in this region end off with an insufficient-capacity error. */
  failNextStarts: number;
}

/** The three keys printed in the ready line. */
export interface AccessKeys {
  individual: string;
  teamAdmin: string;
  teamMember: string;
}

/** Everything the emulator knows; one value, persisted and dumped whole. */
export interface StoreData {
  keys: AccessKeys;
  teams: TeamRecord[];
  users: UserRecord[];
  networks: NetworkRecord[];
  templates: TemplateRecord[];
  machines: MachineRecord[];
  scripts: ScriptRecord[];
  delegations: DelegationRecord[];
  capacity: CapacityRecord[];
  /** Static IPs kept by the account after a destroy without releasePublicIp. */
  reservedIps: string[];
  counters: { internalId: number; delegationId: number; staticIp: number };
}
