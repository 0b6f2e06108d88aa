/**
 * Reads a machine and a script that exist outside this stack, without managing them.
 * Config: `machineId`, `scriptId`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, Script } from "pulumi-vmapi";

const config = new pulumi.Config();
const machine = Machine.get("existing", config.require("machineId"));
const script = Script.get("existing-script", config.require("scriptId"));

export const name = machine.name;
export const region = machine.region;
export const currentState = machine.currentState;
export const scriptName = script.name;
export const isMachine = Machine.isInstance(machine) && !Machine.isInstance(script);
