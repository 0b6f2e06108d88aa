/**
 * Reads a machine, a script and a user's access to the machine that exist outside this stack,
 * without managing them. Config: `machineId`, `scriptId`, `userId`; with `delegationId`, also
 * reads that resource delegation (which the API cannot do: the up fails saying so).
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, MachineAccess, ResourceDelegation, Script } from "pulumi-vmapi";

const config = new pulumi.Config();
const machine = Machine.get("existing", config.require("machineId"));
const script = Script.get("existing-script", config.require("scriptId"));

export const name = machine.name;
export const region = machine.region;
export const currentState = machine.currentState;
export const scriptName = script.name;
export const isMachine = Machine.isInstance(machine) && !Machine.isInstance(script);
const access = MachineAccess.get(
  "existing-access",
  `${config.require("machineId")}/${config.require("userId")}`,
);
export const accessMachineId = access.machineId;
export const accessUserId = access.userId;

const delegationId = config.get("delegationId");
if (delegationId) ResourceDelegation.get("existing-delegation", delegationId);
