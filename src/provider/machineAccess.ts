/**
 * `MachineAccess`: one user's access to one machine, granted on create and revoked on delete.
 */
import * as pulumi from "@pulumi/pulumi";
import { providerStub, quietStacks } from "./stub";

/** Inputs of a {@link MachineAccess}; a change of either replaces the grant. */
export interface MachineAccessArgs {
  machineId: pulumi.Input<string>;
  userId: pulumi.Input<string>;
}

/** Access for `userId` to `machineId`. The id is `<machineId>/<userId>`. */
export class MachineAccess extends pulumi.dynamic.Resource {
  declare readonly machineId: pulumi.Output<string>;
  declare readonly userId: pulumi.Output<string>;

  constructor(name: string, args: MachineAccessArgs, opts?: pulumi.CustomResourceOptions) {
    const restoreStacks = quietStacks();
    try {
      super(providerStub("MachineAccess"), name, { ...args }, opts, "vmapi", "MachineAccess");
    } finally {
      restoreStacks();
    }
  }
}
