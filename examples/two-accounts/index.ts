/**
 * Two accounts in one program: a personal machine under the default key (`vmapi:apiKey`) and a
 * team machine under the named account `team`. Keys live only in the stack config, as secrets;
 * a resource names its account, never a key.
 *
 * Config, in this folder (the emulator's seeded keys; `npm run emulator:start` prints the URL):
 *   npm run pulumi -- config set vmapi:baseUrl http://127.0.0.1:<port>
 *   npm run pulumi -- config set --secret vmapi:apiKey dev-individual-key
 *   npm run pulumi -- config set vmapi:pollScale 0.05    # the background emulator's time scale
 *   npm run pulumi -- config set --secret --path 'vmapi:accounts.team.apiKey' dev-team-admin-key
 *   npm run pulumi -- config set teamId teacme001
 * and optionally `memberEmail`, the team user who gets the team machine.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, getTemplatesOutput, getUsersOutput } from "pulumi-vmapi";

const config = new pulumi.Config();
const teamId = config.require("teamId");
// The team member who gets the team machine (default: the emulator's seeded max@).
const memberEmail = config.get("memberEmail") ?? "max@acme.example";

// Data sources take the account too; each key sees its own templates.
const ubuntu = getTemplatesOutput({ os: "Ubuntu 22.04 Server" }).apply(({ templates }) => templates[0].id);
const teamUbuntu = getTemplatesOutput({ os: "Ubuntu 22.04 Server" }, { account: "team" }).apply(
  ({ templates }) => templates[0].id,
);

const member = getUsersOutput({ teamId, email: memberEmail }, { account: "team" }).apply(({ users }) => {
  if (users.length === 0) throw new Error(`no user ${memberEmail} in team ${teamId}: set memberEmail`);
  return users[0].id;
});

const personal = new Machine("personal", {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: ubuntu,
});

const shared = new Machine("team-trainer", {
  account: "team",
  teamId,
  userId: member,
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: teamUbuntu,
});

export const personalMachineId = personal.machineId;
export const teamMachineId = shared.machineId;
export const teamMachineAccount = shared.account;
