/**
 * `MachineAccess`: one user's access to one machine, granted on create and revoked on delete.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Assert } from "../shared/resourceImplementation";
import { VmApiResource, typeToken, type RegistersItsOutputs } from "./resourceClass";
import { machineAccessResource } from "../access/machineAccessResource";

/** Inputs of a {@link MachineAccess}; a change of either replaces the grant. */
export interface MachineAccessArgs {
  /**
   * The named account the resource belongs to: an entry of the secret stack config
   * `vmapi:accounts` (a name, never a key). Left out: the default `vmapi:apiKey`. Replaces.
   */
  account?: pulumi.Input<string>;
  /** The machine to share. Replaces. */
  machineId: pulumi.Input<string>;
  /** The user of the same account or team who may use it. Replaces. */
  userId: pulumi.Input<string>;
}

/** Access for `userId` to `machineId`. The id is `<machineId>/<userId>`. */
export class MachineAccess extends VmApiResource {
  /** The named account of `vmapi:accounts` the resource belongs to; undefined: the default key. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The machine the user may use. */
  declare readonly machineId: pulumi.Output<string>;
  /** The user (of the same account or team) who may use it. */
  declare readonly userId: pulumi.Output<string>;

  /** @internal The type the engine knows this resource by. */
  static readonly __pulumiType = typeToken("MachineAccess");

  /**
   * Reads an existing access grant, id `<machineId>/<userId>`, into the program without managing
   * it; `pulumi destroy` leaves it alone.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): MachineAccess {
    return new MachineAccess(name, {} as MachineAccessArgs, { ...opts, id });
  }

  constructor(name: string, args: MachineAccessArgs, opts?: pulumi.CustomResourceOptions) {
    super(machineAccessResource, name, args, opts);
  }
}

/* Compile-time check that every output the class declares is registered (else it stays undefined). */
type _RegistersItsOutputs = Assert<
  RegistersItsOutputs<MachineAccess, (typeof machineAccessResource.keys)[number]>
>;
