/**
 * Every input of Machine and how a change to it is applied, as its declaration says
 * (machineResource.ts): the provider's `diff` and `update` both read it, and `vmapi-review` reads
 * it to tell the inputs that force a replacement from those changed in place. Data derived from
 * zod objects, with no Pulumi import, so the review loads it without loading Pulumi.
 */
import { machineResource } from "./machineResource";

/** Every input of Machine and how a change to it is applied: `diff` and `update` both read it. */
export const MACHINE_DIFF_TABLE = machineResource.changes;
export type MachineInputKey = keyof typeof MACHINE_DIFF_TABLE;
