/**
 * Machines that exist already (a Terraform state's, in terraformImport.test.ts), each declared
 * with `adoptMachineId` and the inputs it has: the TypeScript route of
 * docs/migrating-from-terraform.md ("Other languages"). Config `machines`: JSON, a list of
 * `{ name, id, inputs }`, the logical name and the machine's id as the converter answered them
 * (`--generate-resources`) and the Machine's inputs but `adoptMachineId`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, type MachineArgs } from "pulumi-vmapi";

interface Adopted {
  name: string;
  id: string;
  inputs: MachineArgs;
}

const config = new pulumi.Config();
const machines = config
  .requireObject<Adopted[]>("machines")
  .map((m) => new Machine(m.name, { ...m.inputs, adoptMachineId: m.id }));

export const machineIds = machines.map((m) => m.machineId);
