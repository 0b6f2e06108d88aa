/**
 * `ResourceDelegation`: limited access to listed machines through a token that expires 4 hours
 * after creation. The API has no delete: deleting the resource only forgets it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Assert } from "../shared/resourceImplementation";
import { VmApiResource, typeToken, type RegistersItsOutputs } from "./resourceClass";
import { resourceDelegationResource } from "../delegation/resourceDelegationResource";

/** Inputs of a {@link ResourceDelegation}. */
export interface ResourceDelegationArgs {
  /**
   * The named account the resource belongs to: an entry of the secret stack config
   * `vmapi:accounts` (a name, never a key). Left out: the default `vmapi:apiKey`. Replaces.
   */
  account?: pulumi.Input<string>;
  /** Machines the token may show, start, stop and restart. A change replaces the delegation. */
  machineIds: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Replace the delegation at the next `pulumi up` when it expires within this many seconds
   * (default 1800). A delegation already expired is always replaced. A provider setting: updates
   * in place, no API call.
   * @defaultValue 1800
   */
  renewBeforeSeconds?: pulumi.Input<number>;
}

/** A time-limited delegation; `accessTokenId` is a secret. */
export class ResourceDelegation extends VmApiResource {
  /** The machines the token may show, start, stop and restart. */
  declare readonly machineIds: pulumi.Output<string[]>;
  /** The named account of `vmapi:accounts` the resource belongs to; undefined: the default key. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The delegation's id in the API (the resource's id too). */
  declare readonly delegationId: pulumi.Output<number>;
  /** The token to present as X-Api-Key (secret). */
  declare readonly accessTokenId: pulumi.Output<string>;
  /** When it was created (ISO 8601, UTC). */
  declare readonly dtCreated: pulumi.Output<string>;
  /** dtCreated + 4 h. */
  declare readonly expiresAt: pulumi.Output<string>;
  /** Whether the token is accepted. */
  declare readonly isEnabled: pulumi.Output<boolean>;

  /** @internal The type the engine knows this resource by. */
  static readonly __pulumiType = typeToken("ResourceDelegation");

  /**
   * Not possible for a delegation: the API cannot read one back, so this fails at `up` and
   * `preview` with a message that says so. It exists so every resource has the same surface.
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): ResourceDelegation {
    return new ResourceDelegation(name, {} as ResourceDelegationArgs, { ...opts, id });
  }

  constructor(name: string, args: ResourceDelegationArgs, opts?: pulumi.CustomResourceOptions) {
    super(resourceDelegationResource, name, args, opts);
  }
}

/* Compile-time check that every output the class declares is registered (else it stays undefined). */
type _RegistersItsOutputs = Assert<
  RegistersItsOutputs<ResourceDelegation, (typeof resourceDelegationResource.keys)[number]>
>;
