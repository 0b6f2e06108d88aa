/**
 * Records → wire objects, typed with the shared schemas' types so a response cannot drift from
 * what the client parses. Hardware and address fields are null while a machine is provisioning.
 */
import type {
  Machine,
  MachineEvent,
  Network,
  ResourceDelegation,
  Script,
  Template,
  User,
} from "../../contract/schemas";
import { iso, isoOrNull } from "../state/clock";
import { specOf } from "./machineTypes";
import { gbToBytes } from "../../contract/storage";
import type {
  DelegationRecord,
  EventRecord,
  MachineRecord,
  NetworkRecord,
  ScriptRecord,
  TemplateRecord,
  UserRecord,
  Stored,
} from "../state/records";

/** Which optional parts of a machine to include: internalId in lists, events in show. */
export interface MachineViewOptions {
  internalId?: boolean;
  events?: boolean;
}

/** The machine object of the wire. */
export function machineView(m: Stored<MachineRecord>, options: MachineViewOptions = {}): Machine {
  const spec = specOf(m.machineType);
  const built = m.state !== "provisioning";
  const hw = <T>(value: T): T | null => (built ? value : null);
  const view: Machine = {
    id: m.id,
    name: m.name,
    os: hw(m.os),
    ram: hw(gbToBytes(spec.ramGiB)),
    cpus: spec.cpus,
    gpu: hw(spec.gpu),
    storageTotal: hw(gbToBytes(m.size)),
    storageUsed: hw(gbToBytes(Math.min(m.size, 12))),
    machineType: m.machineType,
    usageRate: `${m.machineType} ${m.billingType}`,
    shutdownTimeoutInHours: m.shutdownTimeoutInHours,
    shutdownTimeoutForces: m.shutdownTimeoutForces,
    performAutoSnapshot: m.performAutoSnapshot,
    autoSnapshotFrequency: m.autoSnapshotFrequency,
    autoSnapshotSaveCount: m.autoSnapshotSaveCount,
    dynamicPublicIp: m.dynamicPublicIpEnabled,
    agentType: m.agentType,
    dtCreated: iso(m.dtCreated),
    state: m.state,
    updatesPending: false,
    networkId: m.networkId,
    privateIpAddress: hw(m.privateIpAddress),
    publicIpAddress: hw(m.staticPublicIp ?? m.dynamicPublicIp),
    region: m.region,
    scriptId: m.scriptId,
    dtLastRun: isoOrNull(m.dtLastRun),
    restorePointSnapshotId: m.restorePointSnapshotId,
    restorePointFrequency: m.restorePointFrequency,
    userId: m.userId,
    teamId: m.teamId,
  };
  if (options.internalId) view.internalId = m.internalId;
  if (options.events) view.events = m.events.map(eventView);
  return view;
}

/** One machine event. */
export function eventView(e: Stored<EventRecord>): MachineEvent {
  return {
    name: e.name,
    state: e.state,
    errorMsg: e.errorMsg,
    handle: e.handle,
    dtCreated: iso(e.dtCreated),
    dtModified: iso(e.dtModified),
    dtFinished: isoOrNull(e.dtFinished),
  };
}

/** The script record; `machines` (show only) lists the live machines it is attached to. */
export function scriptView(s: Stored<ScriptRecord>, machines?: readonly Stored<MachineRecord>[]): Script {
  const view: Script = {
    id: s.id,
    ownerType: s.ownerType,
    ownerId: s.ownerId,
    name: s.name,
    description: s.description,
    dtCreated: iso(s.dtCreated),
    isEnabled: s.isEnabled,
    runOnce: s.runOnce,
  };
  if (machines !== undefined) {
    view.machines = machines.map((m) => ({
      machineId: m.id,
      machineName: m.name,
      dtLastRun: isoOrNull(s.runs[m.id] ?? null),
    }));
  }
  return view;
}

/** A user; never the API key, never a password. */
export function userView(u: Stored<UserRecord>): User {
  return {
    id: u.id,
    email: u.email,
    firstname: u.firstname,
    lastname: u.lastname,
    dtCreated: iso(u.dtCreated),
    teamId: u.teamId,
  };
}

/** A network. */
export function networkView(n: Stored<NetworkRecord>): Network {
  return {
    id: n.id,
    name: n.name,
    region: n.region,
    dtCreated: iso(n.dtCreated),
    network: n.network,
    netmask: n.netmask,
    teamId: n.teamId,
  };
}

/** A template; agentType stays internal. */
export function templateView(t: Stored<TemplateRecord>): Template {
  return {
    id: t.id,
    name: t.name,
    label: t.label,
    os: t.os,
    dtCreated: iso(t.dtCreated),
    teamId: t.teamId,
    userId: t.userId,
    region: t.region,
  };
}

/** A resource delegation. */
export function delegationView(d: Stored<DelegationRecord>): ResourceDelegation {
  return {
    id: d.id,
    delegation: { machine: { ids: [...d.machineIds] } },
    isEnabled: d.isEnabled,
    accessTokenId: d.accessTokenId,
    dtCreated: iso(d.dtCreated),
  };
}
