/**
 * Wire types of the VM API, written once: the client parses every response with these and the
 * emulator builds every response to them. Unknown response fields are stripped, never an error, so
 * a newer server does not break an older client.
 */
import { z } from "zod";
import { AGENT_TYPES, AUTO_SNAPSHOT_FREQUENCIES, MACHINE_STATES, OWNER_TYPES } from "./constants";

/** ISO 8601 UTC with milliseconds, e.g. 2026-11-22T14:00:00.000Z. */
export const TimestampSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, {
  message: "must be an ISO 8601 UTC timestamp with milliseconds",
});

export const MachineStateSchema = z.enum(MACHINE_STATES);

/** One entry of a machine's event history (newest first in `events`). */
export const MachineEventSchema = z.object({
  /** What happened: `create`, `start`, `stop`, `restart` or `snapshot-create`. */
  name: z.string(),
  /** `pending` while the operation runs, then `done` or `error`. */
  state: z.string(),
  /** Why the operation failed (e.g. insufficient capacity); empty unless it did. */
  errorMsg: z.string(),
  /** The event's unique handle. */
  handle: z.string(),
  /** When the operation started (ISO 8601, UTC). */
  dtCreated: TimestampSchema,
  /** When the event last changed (ISO 8601, UTC). */
  dtModified: TimestampSchema,
  /** When the operation finished (ISO 8601, UTC); null while it runs. */
  dtFinished: TimestampSchema.nullable(),
});
/** A machine lifecycle event as the API reports it. */
export type MachineEvent = z.infer<typeof MachineEventSchema>;

/** The machine object; `internalId` only in lists, `events` only in show. */
export const MachineSchema = z.object({
  /** The machine's id, e.g. `psabc1234`. */
  id: z.string(),
  /** The machine's name. */
  name: z.string(),
  /** The operating system of its template, e.g. `Ubuntu 22.04 Server`; null while provisioning. */
  os: z.string().nullable(),
  /** Memory in bytes, as a numeric string (`"8589938688"`). */
  ram: z.string().nullable(),
  /** Number of virtual CPUs. */
  cpus: z.number().int(),
  /** The GPU model, e.g. `Quadro P5000`; null for CPU types. */
  gpu: z.string().nullable(),
  /** Disk size in bytes, as a numeric string. */
  storageTotal: z.string().nullable(),
  /** Disk used in bytes, as a numeric string. */
  storageUsed: z.string().nullable(),
  /** The machine type, e.g. `C4` (the API may report types this package does not list). */
  machineType: z.string(),
  /** The billing rate's name: type and billing, e.g. `C4 Hourly`. */
  usageRate: z.string(),
  /** Hours without a login before the machine shuts down. */
  shutdownTimeoutInHours: z.number().int(),
  /** Whether that shutdown is forced. */
  shutdownTimeoutForces: z.boolean(),
  /** Whether snapshots are taken automatically. */
  performAutoSnapshot: z.boolean(),
  /** How often automatic snapshots are taken: `hour`, `day` or `week`. */
  autoSnapshotFrequency: z.enum(AUTO_SNAPSHOT_FREQUENCIES).nullable(),
  /** How many automatic snapshots are kept. */
  autoSnapshotSaveCount: z.number().int().nullable(),
  /** Whether a public IP is assigned at each start and released at stop. */
  dynamicPublicIp: z.boolean(),
  /** How the machine is reached: `LinuxHeadless`, `LinuxDesktop`, `WindowsDesktop`, or another. */
  agentType: z.union([z.enum(AGENT_TYPES), z.string()]),
  /** When it was created (ISO 8601, UTC). */
  dtCreated: TimestampSchema,
  /** Its state: `off`, `starting`, `stopping`, `restarting`, `serviceready`, `ready`, ... */
  state: MachineStateSchema,
  /** Whether OS updates wait for the next restart. */
  updatesPending: z.boolean(),
  /** The network it is on. */
  networkId: z.string().nullable(),
  /** Its address on that network. */
  privateIpAddress: z.string().nullable(),
  /** Its public address, when it has one (static, or dynamic while running). */
  publicIpAddress: z.string().nullable(),
  /** Its region, e.g. `East Coast (NY2)`. */
  region: z.string().nullable(),
  /** The startup script attached to it. */
  scriptId: z.string().nullable(),
  /** When that script last ran (ISO 8601, UTC). */
  dtLastRun: TimestampSchema.nullable(),
  /** The snapshot the machine is restored to, when it has a restore point. */
  restorePointSnapshotId: z.string().nullable(),
  /** When it is restored (`shutdown`). */
  restorePointFrequency: z.string().nullable(),
  /** The machine's user, when the API reports it. */
  userId: z.string().nullable().optional(),
  /** The machine's team, when the API reports it. */
  teamId: z.string().nullable().optional(),
  /** A number the API gives machines in lists only; it means nothing to a program. */
  internalId: z.number().int().optional(),
  /** Its lifecycle events (create, start, stop, ...), when one machine is shown (not in lists). */
  events: z.array(MachineEventSchema).optional(),
});
/** A machine as the API reports it. */
export type Machine = z.infer<typeof MachineSchema>;
export const MachineListSchema = z.array(MachineSchema);

/** A machine a script is attached to, as listed in a script's `machines` (our decision). */
export const ScriptMachineSchema = z.object({
  /** The machine's id. */
  machineId: z.string(),
  /** The machine's name. */
  machineName: z.string(),
  /** When the script last ran on it (ISO 8601, UTC); null before it has. */
  dtLastRun: TimestampSchema.nullable(),
});

/** The script record; the text is never part of it. `machines` only in show. */
export const ScriptSchema = z.object({
  /** The script's id. */
  id: z.string(),
  /** Whether a user or a team owns it. */
  ownerType: z.enum(OWNER_TYPES),
  /** The id of that user or team. */
  ownerId: z.string(),
  /** The script's name, unique per owner. */
  name: z.string(),
  /** Its description. */
  description: z.string().nullable(),
  /** When it was created (ISO 8601, UTC). */
  dtCreated: TimestampSchema,
  /** Whether machines run it at startup. */
  isEnabled: z.boolean(),
  /** Whether it runs at the first boot only. */
  runOnce: z.boolean(),
  /** The machines it is attached to, when one script is shown (not in lists). */
  machines: z.array(ScriptMachineSchema).optional(),
});
/** A startup script as the API reports it (without its text). */
export type Script = z.infer<typeof ScriptSchema>;
export const ScriptListSchema = z.array(ScriptSchema);
/** getScriptText answers the text as one JSON string. */
export const ScriptTextSchema = z.string();

export const UserSchema = z.object({
  /** The user's id. */
  id: z.string(),
  /** The user's email address. */
  email: z.string(),
  /** The user's first name. */
  firstname: z.string(),
  /** The user's last name. */
  lastname: z.string(),
  /** When the user was created (ISO 8601, UTC). */
  dtCreated: TimestampSchema,
  /** The user's team; null for a user without one. */
  teamId: z.string().nullable(),
});
/** A user as the API reports it. */
export type User = z.infer<typeof UserSchema>;
export const UserListSchema = z.array(UserSchema);

export const NetworkSchema = z.object({
  /** The network's id. */
  id: z.string(),
  /** The network's name. */
  name: z.string(),
  /** Its region, e.g. `East Coast (NY2)`. */
  region: z.string(),
  /** When it was created (ISO 8601, UTC). */
  dtCreated: TimestampSchema,
  /** Its network address (with `netmask`, the range its machines get private addresses from). */
  network: z.string(),
  /** Its netmask. */
  netmask: z.string(),
  /** The team it belongs to; null for a user's own network. */
  teamId: z.string().nullable(),
});
/** A network as the API reports it. */
export type Network = z.infer<typeof NetworkSchema>;
export const NetworkListSchema = z.array(NetworkSchema);

export const TemplateSchema = z.object({
  /** The template's id: a Machine's `templateId`. */
  id: z.string(),
  /** The template's name. */
  name: z.string(),
  /** Its label as shown to users. */
  label: z.string(),
  /** The operating system machines get from it, e.g. `Ubuntu 22.04 Server`. */
  os: z.string(),
  /** When it was created (ISO 8601, UTC). */
  dtCreated: TimestampSchema,
  /** The team that owns it; public templates have none. */
  teamId: z.string().nullable().optional(),
  /** The user that owns it; public templates have none. */
  userId: z.string().nullable().optional(),
  /** The region it is in, when it is bound to one. */
  region: z.string().nullable().optional(),
});
/** A template as the API reports it. */
export type Template = z.infer<typeof TemplateSchema>;
export const TemplateListSchema = z.array(TemplateSchema);

export const ResourceDelegationSchema = z.object({
  id: z.number().int(),
  delegation: z.object({ machine: z.object({ ids: z.array(z.string()) }) }),
  isEnabled: z.boolean(),
  accessTokenId: z.string(),
  dtCreated: TimestampSchema,
});
/** A resource delegation as the API answers its creation (the token is a secret). */
export type ResourceDelegation = z.infer<typeof ResourceDelegationSchema>;
/** Older servers answered a one-element array, newer ones the object: accept both. */
export const ResourceDelegationResponseSchema = z
  .union([ResourceDelegationSchema, z.array(ResourceDelegationSchema).length(1)])
  .transform((v) => (Array.isArray(v) ? v[0] : v));

const BillingMonthSchema = z.string().regex(/^\d{4}-\d{2}$/);
export const UtilizationSchema = z.object({
  /** The machine's id. */
  machineId: z.string(),
  /** The machine's running time in the month and its hourly rate. */
  utilization: z.object({
    /** The machine's id. */
    machineId: z.string(),
    /** Seconds the machine ran in the month. */
    secondsUsed: z.number().int(),
    /** The machine's hourly rate in dollars, as a decimal string. */
    hourlyRate: z.string(),
    /** The billing month, `YYYY-MM`. */
    billingMonth: BillingMonthSchema,
  }),
  /** The machine's storage time in the month and its monthly rate. */
  storageUtilization: z.object({
    /** The machine's id. */
    machineId: z.string(),
    /** Seconds the storage was kept in the month. */
    secondsUsed: z.number().int(),
    /** The storage's monthly rate in dollars, as a decimal string. */
    monthlyRate: z.string(),
    /** The billing month, `YYYY-MM`. */
    billingMonth: BillingMonthSchema,
  }),
});
/** A machine's utilization in a billing month: seconds used and rates. */
export type Utilization = z.infer<typeof UtilizationSchema>;

export const AvailabilitySchema = z.object({ available: z.boolean() });
/** Whether a machine type can be requested in a region now. */
export type Availability = z.infer<typeof AvailabilitySchema>;

/** The nested error body the emulator always sends (docs/api.md, "Errors"). */
export const NestedErrorBodySchema = z.object({
  error: z.object({
    name: z.string().optional(),
    status: z.number().optional(),
    message: z.string().optional(),
    code: z.string().optional(),
  }),
});
/** The flat body the real service used for authentication failures. */
export const FlatErrorBodySchema = z.object({
  status: z.number().optional(),
  message: z.string(),
});
export type NestedErrorBody = z.infer<typeof NestedErrorBodySchema>;
