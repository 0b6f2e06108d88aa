/**
 * Every input of Machine and how a change to it is applied: the provider's `diff` and `update`
 * both read it, and `vmapi-review` reads it to tell the inputs that force a replacement from
 * those changed in place. Pure data with no runtime import, so the review loads it without
 * loading Pulumi.
 */
import type { DiffTable } from "../shared/diffTable";

/** Every input of Machine and how a change to it is applied: `diff` and `update` both read it. */
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
