/**
 * The ResourceDelegation resource as data: its inputs and outputs, typed from the wire schema,
 * and the key lists its class registers (resourceDelegation.ts). Types and plain lists only.
 */
import { z } from "zod";
import { DELEGATION_LIFETIME_MS } from "../../contract/constants";
import type { ResourceDelegation as ApiDelegation } from "../../contract/schemas";
import type { Assert, Props, Same } from "../shared/resourceImplementation";
import { resourceDelegationResource } from "./resourceDelegationResource";

/**
 * The ResourceDelegation's own settings, with their rules: `check` applies them, and the package
 * schema reads their types here (a whole number of seconds, less than the lifetime).
 */
export const DelegationSettingsSchema = z.object({
  /** How long before the token expires `pulumi up` renews it: whole seconds. */
  renewBeforeSeconds: z
    .number()
    .int()
    .min(0)
    .max(DELEGATION_LIFETIME_MS / 1000 - 1),
});

/** A ResourceDelegation's inputs: the machines of the request, and when to renew (the provider's). */
interface DelegationInputFields {
  machineIds: ApiDelegation["delegation"]["machine"]["ids"];
  renewBeforeSeconds: z.infer<typeof DelegationSettingsSchema>["renewBeforeSeconds"];
}

/** The inputs a ResourceDelegation's provider receives (checked by its `check`). */
export type DelegationInputs = Props<DelegationInputFields>;

/** What create learns, named as the resource names it (`delegationId` is the wire's `id`). */
type ReportedFields = Pick<ApiDelegation, "accessTokenId" | "dtCreated" | "isEnabled"> & {
  delegationId: ApiDelegation["id"];
  /** `dtCreated` plus the delegation's lifetime. */
  expiresAt: string;
};

/** The outputs a ResourceDelegation's provider stores: the inputs and what create learned. */
export type DelegationOutputs = Props<DelegationInputFields & ReportedFields>;

/** The outputs of a create: every field create learned is there. */
export type CreatedDelegation = DelegationOutputs & ReportedFields;

type InputKey = keyof typeof resourceDelegationResource.inputs.shape;
type OutputKey = keyof typeof resourceDelegationResource.outputs.shape;

/** Every input key of a ResourceDelegation, as its declaration has them. */
export const DELEGATION_INPUT_KEYS = resourceDelegationResource.inputNames as readonly InputKey[];

/* Compile-time checks that the declared fields are the typed ones: the inputs, and the outputs besides them. */
type _InputKeys = Assert<Same<InputKey, keyof DelegationInputFields>>;
type _OutputKeys = Assert<Same<Exclude<OutputKey, InputKey>, keyof ReportedFields>>;
