/**
 * The Machine resource as data: its diff table, how inputs become API bodies, and how an API
 * machine becomes outputs and (on refresh) inputs.
 */
import * as crypto from "crypto";
import type { CreateMachineRequest, UpdateMachineRequest } from "../client/requestSchemas";
import type { Machine as ApiMachine } from "../client/schemas";
import type { DiffTable } from "./diffTable";
import { definedOnly } from "./checks";

/** Every input of Machine and how a change to it is applied (STYLE.md principle 7). */
export const MACHINE_DIFF_TABLE = {
  name: "update",
  shutdownTimeoutInHours: "update",
  shutdownTimeoutForces: "update",
  performAutoSnapshot: "update",
  autoSnapshotFrequency: "update",
  autoSnapshotSaveCount: "update",
  dynamicPublicIp: "update",
  state: "power",
  region: "replace",
  machineType: "replace",
  size: "replace",
  billingType: "replace",
  templateId: "replace",
  teamId: "replace",
  networkId: "replace",
  scriptId: "replace",
  userId: "replace",
  email: "replace",
  password: "replace",
  firstName: "replace",
  lastName: "replace",
  assignPublicIp: "replace",
  takeInitialSnapshot: "replace",
  markSnapshotAsRestorePoint: "replace",
  restorePointFrequency: "replace",
  adoptMachineId: "replace",
  notificationEmail: "none",
  waitTimeoutSeconds: "none",
  releasePublicIpOnDestroy: "none",
} as const satisfies DiffTable<string>;
export type MachineInputKey = keyof typeof MACHINE_DIFF_TABLE;

/** Inputs whose wire name differs from the Pulumi property name. */
const WIRE_NAMES: Partial<Record<MachineInputKey, string>> = { name: "machineName" };
/** The property a wire field of a create/update body came from. */
export function machinePropertyOf(wireField: string): string {
  const hit = Object.entries(WIRE_NAMES).find(([, wire]) => wire === wireField);
  return hit ? hit[0] : wireField;
}

const CREATE_FIELDS = [
  "region",
  "machineType",
  "size",
  "billingType",
  "templateId",
  "teamId",
  "assignPublicIp",
  "dynamicPublicIp",
  "networkId",
  "scriptId",
  "userId",
  "email",
  "password",
  "firstName",
  "lastName",
  "notificationEmail",
  "takeInitialSnapshot",
  "markSnapshotAsRestorePoint",
  "restorePointFrequency",
] as const;

/** The create body for these inputs; `startOnCreate` follows the wanted power state. */
export function createBody(inputs: Record<string, unknown>): CreateMachineRequest {
  const body: Record<string, unknown> = { machineName: inputs.name };
  for (const key of CREATE_FIELDS) body[key] = inputs[key];
  body.startOnCreate = (inputs.state ?? "ready") !== "off";
  return definedOnly(body) as unknown as CreateMachineRequest;
}

/** The update body for the in-place rows among `keys`, with values from `inputs`. */
export function updateBody(inputs: Record<string, unknown>, keys: readonly string[]): UpdateMachineRequest {
  const body: Record<string, unknown> = {};
  for (const key of keys) {
    if (MACHINE_DIFF_TABLE[key as MachineInputKey] !== "update" || inputs[key] === undefined) continue;
    body[WIRE_NAMES[key as MachineInputKey] ?? key] = inputs[key];
  }
  return body as UpdateMachineRequest;
}

/** The in-place rows whose declared value differs from the machine's actual one. */
export function updateKeysAgainst(inputs: Record<string, unknown>, machine: ApiMachine): MachineInputKey[] {
  const actual = actualInputs(machine);
  return (Object.keys(MACHINE_DIFF_TABLE) as MachineInputKey[]).filter(
    (key) =>
      MACHINE_DIFF_TABLE[key] === "update" &&
      inputs[key] !== undefined &&
      JSON.stringify(inputs[key]) !== JSON.stringify(actual[key]),
  );
}

/** The power states a Machine can declare. */
export const POWER_STATES = ["ready", "off"] as const;
export type PowerState = (typeof POWER_STATES)[number];

/**
 * The declared power state, as the `state` output holds it. State written by 0.1.0 held the
 * observed state there (e.g. "starting" after a timed-out wait): a transitional value reads as
 * the power state it was heading to.
 */
export function declaredPowerState(value: unknown): PowerState {
  return value === "off" || value === "stopping" ? "off" : "ready";
}

/**
 * Where the machine stands for the diff of `state`: the observed state when the outputs have one,
 * so a machine that has not settled in the declared state (a partial failure, a refresh that saw
 * it stopped) shows a change and the next `pulumi up` carries on.
 */
export function observedPowerState(outputs: Record<string, unknown>): unknown {
  return outputs.currentState ?? outputs.state;
}

/** Inputs as the API sees them now: what refresh reports as drift. */
export function actualInputs(machine: ApiMachine): Partial<Record<MachineInputKey, unknown>> {
  return {
    name: machine.name,
    shutdownTimeoutInHours: machine.shutdownTimeoutInHours,
    shutdownTimeoutForces: machine.shutdownTimeoutForces,
    performAutoSnapshot: machine.performAutoSnapshot,
    autoSnapshotFrequency: machine.autoSnapshotFrequency,
    autoSnapshotSaveCount: machine.autoSnapshotSaveCount,
    dynamicPublicIp: machine.dynamicPublicIp,
    region: machine.region,
    machineType: machine.machineType,
    networkId: machine.networkId,
    scriptId: machine.scriptId,
    restorePointFrequency: machine.restorePointFrequency,
    ...(machine.userId !== undefined ? { userId: machine.userId } : {}),
    ...(machine.teamId !== undefined ? { teamId: machine.teamId } : {}),
  };
}

/**
 * Outputs: the declared inputs (the password only as a salted digest), overlaid with the
 * machine's actual values, plus every field the API reports.
 */
export function machineOutputs(
  declared: Record<string, unknown>,
  machine: ApiMachine,
): Record<string, unknown> {
  const { password, ...rest } = declared;
  const outs: Record<string, unknown> = { ...rest };
  if (typeof password === "string") outs.passwordDigest = digestPassword(password, declared.passwordDigest);
  Object.assign(outs, definedOnly(actualInputs(machine)));
  outs.state = declaredPowerState(declared.state);
  Object.assign(outs, {
    machineId: machine.id,
    currentState: machine.state,
    os: machine.os,
    ram: machine.ram,
    cpus: machine.cpus,
    gpu: machine.gpu,
    storageTotal: machine.storageTotal,
    storageUsed: machine.storageUsed,
    usageRate: machine.usageRate,
    agentType: machine.agentType,
    dtCreated: machine.dtCreated,
    updatesPending: machine.updatesPending,
    privateIpAddress: machine.privateIpAddress,
    publicIpAddress: machine.publicIpAddress,
    dtLastRun: machine.dtLastRun,
    restorePointSnapshotId: machine.restorePointSnapshotId,
    events: machine.events ?? [],
  });
  // The plugin cannot encode undefined ("Unexpected struct type").
  return definedOnly(outs);
}

/**
 * A salted scrypt digest, so a change of password can be detected without keeping it. Reuses
 * the old salt when the password is unchanged, so outputs stay stable.
 */
export function digestPassword(password: string, previous?: unknown): string {
  if (typeof previous === "string" && passwordMatches(password, previous)) return previous;
  const salt = crypto.randomBytes(16).toString("hex");
  return `scrypt$${salt}$${crypto.scryptSync(password, salt, 32).toString("hex")}`;
}

/** True when `password` is the one `digest` was made from. */
export function passwordMatches(password: unknown, digest: unknown): boolean {
  if (typeof password !== "string" || typeof digest !== "string") return password === digest;
  const [scheme, salt, hash] = digest.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const candidate = crypto.scryptSync(password, salt, 32);
  return crypto.timingSafeEqual(candidate, Buffer.from(hash, "hex"));
}
