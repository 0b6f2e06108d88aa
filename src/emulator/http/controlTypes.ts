/**
 * The types of the control endpoints (`/_emulator/...`): what a handler sees, and the bodies the
 * typed control client (controlClient.ts) sends and receives. Their route table
 * (controlOperations.ts) holds its schemas to these types, and their handlers (control.ts,
 * machineControl.ts) use them, so both import them from here.
 */
import type { MachineType, Region } from "../../contract/constants";
import type { Machine, Network, ResourceDelegation, Script, Template, User } from "../../contract/schemas";
import type { EmulatorContext } from "../emulatorContext";
import type { CapacityRecord, Role } from "../state/records";
import type { FaultCounts, FaultRule } from "../traffic/faults";
import type { RateLimitView } from "../traffic/rateLimit";

/** What a control handler sees. */
export interface ControlContext {
  emulator: EmulatorContext;
  body: unknown;
}

/** A change of one region's capacity for one machine type, as `POST /_emulator/capacity` takes it. */
export interface CapacityChange {
  region: Region;
  machineType: MachineType;
  /** Whether getAvailability reports the type as available there. */
  available?: boolean;
  /** The next N starts of this type in this region end off with an insufficient-capacity error. */
  failNextStarts?: number;
}

/** What `GET /_emulator/clock` and `POST /_emulator/clock/advance` answer. */
export interface ClockView {
  now: string;
  mode: "real" | "manual";
}

/** What `GET /_emulator/state` answers: every record, destroyed machines included; never a key or a token. */
export interface EmulatorStateDump {
  now: string;
  clock: "real" | "manual";
  timeScale: number;
  teams: { id: string; name: string; dtCreated: string }[];
  users: (User & { role: Role })[];
  networks: Network[];
  templates: (Template & { agentType: string })[];
  machines: (Machine & { dtDestroyed: string | null; accessUserIds: string[] })[];
  scripts: (Script & { runs: Record<string, string> })[];
  accessGrants: { machineId: string; userId: string }[];
  /** Without `accessTokenId`: a delegation's token is a key. */
  delegations: (Omit<ResourceDelegation, "accessTokenId"> & { userId: string; expired: boolean })[];
  capacity: CapacityRecord[];
  reservedIps: string[];
  faults: FaultRule[];
  /** The faults injected since the start or the last reset (random and scripted). */
  faultsInjected: FaultCounts;
  rateLimit: RateLimitView;
  /** Requests served per route, keyed like `GET /machines/getMachinePublic`. */
  requestCounts: Record<string, number>;
}
