/**
 * Compile-time tests of the public surface: `npm run typecheck` covers this file, and each
 * `@ts-expect-error` fails the typecheck if the line below it ever compiles. Nothing runs it.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  Machine,
  MachineAccess,
  ResourceDelegation,
  Script,
  getAvailability,
  getAvailabilityOutput,
  getMachinesOutput,
  getScriptTextOutput,
  getTemplates,
  getUsers,
  getUsersOutput,
  getUtilizationOutput,
  type GetAvailabilityResult,
  type GetUsersArgs,
  type GetUsersOutputArgs,
  type GetUsersResult,
} from "../../src";

export function dataSourcesTakeTheirArgs(team: Machine): void {
  // @ts-expect-error an unknown filter
  getUsersOutput({ bogus: 1 });
  // @ts-expect-error a filter of the wrong type: a user's email is a string
  getUsersOutput({ email: 42 });
  // @ts-expect-error a region the API does not have
  getAvailabilityOutput({ region: "Mars", machineType: "P5000" });
  // @ts-expect-error a machine type that reports no availability
  getAvailabilityOutput({ region: "East Coast (NY2)", machineType: "C4" });
  // @ts-expect-error the required machineType left out
  getAvailability({ region: "East Coast (NY2)" });
  // @ts-expect-error billingMonth must be given
  getUtilizationOutput({ machineId: team.machineId });
  // @ts-expect-error a script's id is a string
  getScriptTextOutput({ scriptId: 7 });
  // @ts-expect-error maxItems is a number
  getMachinesOutput({ maxItems: "all" });

  // Outputs where the args allow them, and the invoke options as the second argument.
  const email: pulumi.Output<string> = team.name;
  const outputArgs: GetUsersOutputArgs = { email };
  const users: pulumi.Output<GetUsersResult> = getUsersOutput(outputArgs, { dependsOn: [team] });
  const args: GetUsersArgs = { email: "ada@acme.example" };
  const plain: Promise<GetUsersResult> = getUsers(args, { parent: team });
  const available: Promise<GetAvailabilityResult> = getAvailability({
    region: "Europe (AMS1)",
    machineType: "V100",
  });
  void [users, plain, available, getTemplates({ os: "Ubuntu 22.04 Server" })];
}

export function resourcesHaveGetAndIsInstance(value: unknown): void {
  const machine: Machine = Machine.get("adopted", "ps123");
  const script: Script = Script.get("s", "sc123", { protect: true });
  const access: MachineAccess = MachineAccess.get("a", "ps123/u1");
  const delegation: ResourceDelegation = ResourceDelegation.get("d", "1");
  if (Machine.isInstance(value)) {
    const narrowed: Machine = value;
    void narrowed.machineId;
  }
  // @ts-expect-error get takes the id, not the inputs
  Machine.get("x", { region: "East Coast (NY2)" });
  void [machine, script, access, delegation];
}
