/**
 * Every secret this package handles in one stack (run with a team admin key): a script whose text
 * is a secret, a machine for a new team user (password), and a delegation (its access token).
 * Config: `teamId`, `scriptText` (secret), `password` (secret).
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, ResourceDelegation, Script } from "pulumi-vmapi";

const config = new pulumi.Config();

const script = new Script("secret-script", { scriptText: config.requireSecret("scriptText") });

const machine = new Machine("for-new-user", {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: "tubsrv01",
  teamId: config.require("teamId"),
  scriptId: script.scriptId,
  email: "secret.keeper@example.com",
  password: config.requireSecret("password"),
  firstName: "Secret",
  lastName: "Keeper",
  state: "off",
});

const delegation = new ResourceDelegation("streaming", { machineIds: [machine.machineId] });

export const machineId = machine.machineId;
export const token = delegation.accessTokenId;
