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
  name: z.string(),
  state: z.string(),
  errorMsg: z.string(),
  handle: z.string(),
  dtCreated: TimestampSchema,
  dtModified: TimestampSchema,
  dtFinished: TimestampSchema.nullable(),
});
/** A machine lifecycle event as the API reports it. */
export type MachineEvent = z.infer<typeof MachineEventSchema>;

/** The machine object; `internalId` only in lists, `events` only in show. */
export const MachineSchema = z.object({
  id: z.string(),
  name: z.string(),
  os: z.string().nullable(),
  ram: z.string().nullable(),
  cpus: z.number(),
  gpu: z.string().nullable(),
  storageTotal: z.string().nullable(),
  storageUsed: z.string().nullable(),
  machineType: z.string(),
  usageRate: z.string(),
  shutdownTimeoutInHours: z.number(),
  shutdownTimeoutForces: z.boolean(),
  performAutoSnapshot: z.boolean(),
  autoSnapshotFrequency: z.enum(AUTO_SNAPSHOT_FREQUENCIES).nullable(),
  autoSnapshotSaveCount: z.number().nullable(),
  dynamicPublicIp: z.boolean(),
  agentType: z.union([z.enum(AGENT_TYPES), z.string()]),
  dtCreated: TimestampSchema,
  state: MachineStateSchema,
  updatesPending: z.boolean(),
  networkId: z.string().nullable(),
  privateIpAddress: z.string().nullable(),
  publicIpAddress: z.string().nullable(),
  region: z.string().nullable(),
  scriptId: z.string().nullable(),
  dtLastRun: TimestampSchema.nullable(),
  restorePointSnapshotId: z.string().nullable(),
  restorePointFrequency: z.string().nullable(),
  userId: z.string().nullable().optional(),
  teamId: z.string().nullable().optional(),
  internalId: z.number().optional(),
  events: z.array(MachineEventSchema).optional(),
});
/** A machine as the API reports it. */
export type Machine = z.infer<typeof MachineSchema>;
export const MachineListSchema = z.array(MachineSchema);

/** A machine a script is attached to, as listed in a script's `machines` (our decision). */
export const ScriptMachineSchema = z.object({
  machineId: z.string(),
  machineName: z.string(),
  dtLastRun: TimestampSchema.nullable(),
});

/** The script record; the text is never part of it. `machines` only in show. */
export const ScriptSchema = z.object({
  id: z.string(),
  ownerType: z.enum(OWNER_TYPES),
  ownerId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  dtCreated: TimestampSchema,
  isEnabled: z.boolean(),
  runOnce: z.boolean(),
  machines: z.array(ScriptMachineSchema).optional(),
});
/** A startup script as the API reports it (without its text). */
export type Script = z.infer<typeof ScriptSchema>;
export const ScriptListSchema = z.array(ScriptSchema);
/** getScriptText answers the text as one JSON string. */
export const ScriptTextSchema = z.string();

export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  dtCreated: TimestampSchema,
  teamId: z.string().nullable(),
});
/** A user as the API reports it. */
export type User = z.infer<typeof UserSchema>;
export const UserListSchema = z.array(UserSchema);

export const NetworkSchema = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  dtCreated: TimestampSchema,
  network: z.string(),
  netmask: z.string(),
  teamId: z.string().nullable(),
});
/** A network as the API reports it. */
export type Network = z.infer<typeof NetworkSchema>;
export const NetworkListSchema = z.array(NetworkSchema);

export const TemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  label: z.string(),
  os: z.string(),
  dtCreated: TimestampSchema,
  teamId: z.string().nullable().optional(),
  userId: z.string().nullable().optional(),
  region: z.string().nullable().optional(),
});
/** A template as the API reports it. */
export type Template = z.infer<typeof TemplateSchema>;
export const TemplateListSchema = z.array(TemplateSchema);

export const ResourceDelegationSchema = z.object({
  id: z.number(),
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
  machineId: z.string(),
  utilization: z.object({
    machineId: z.string(),
    secondsUsed: z.number(),
    hourlyRate: z.string(),
    billingMonth: BillingMonthSchema,
  }),
  storageUtilization: z.object({
    machineId: z.string(),
    secondsUsed: z.number(),
    monthlyRate: z.string(),
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
