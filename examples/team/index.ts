/**
 * Team setup, run with a team administrator's key (the emulator's `dev-team-admin-key`):
 * a machine for an existing member, one for a new team user, access for a colleague and a
 * delegation a streaming client can use for 4 hours.
 *
 * Config (declared in Pulumi.yaml, so `up` names what is missing), in this folder:
 *   npm run pulumi -- config set vmapi:baseUrl http://127.0.0.1:<port>   # npm run emulator:start
 *   npm run pulumi -- config set --secret vmapi:apiKey dev-team-admin-key
 *   npm run pulumi -- config set vmapi:pollScale 0.05    # the background emulator's time scale
 *   npm run pulumi -- config set teamId teacme001
 *   npm run pulumi -- config set --secret newUserPassword 'S0me-passw0rd'
 * and optionally `memberEmail` / `adminEmail`, the team users who get the workstation and access
 * to it (default: the emulator's seeded max@ and ada@).
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, MachineAccess, ResourceDelegation, getTemplates, getUsers } from "pulumi-vmapi";

const config = new pulumi.Config();
const teamId = config.require("teamId");
const newUserPassword = config.requireSecret("newUserPassword");
// Who gets the workstation and who may use it too; the defaults are the emulator's seeded team.
const memberEmail = config.get("memberEmail") ?? "max@acme.example";
const adminEmail = config.get("adminEmail") ?? "ada@acme.example";

/** The id of the team user with this email; fails the program rather than pick someone else. */
function teamUserId(email: string): pulumi.Output<string> {
  return pulumi.output(getUsers({ teamId, email })).apply(({ users }) => {
    if (users.length === 0) {
      throw new Error(`no user ${email} in team ${teamId}: set vmapi-team:memberEmail / adminEmail`);
    }
    return users[0].id;
  });
}

const windows = pulumi.output(getTemplates({ os: "Windows 10" })).apply(({ templates }) => {
  if (templates.length === 0) throw new Error("no Windows 10 template is visible to this key");
  return templates[0].id;
});
const member = teamUserId(memberEmail);

const workstation = new Machine("design-workstation", {
  region: "West Coast (CA1)",
  machineType: "P4000",
  size: 100,
  billingType: "monthly",
  templateId: windows,
  teamId,
  userId: member,
});

const newHire = new Machine("new-hire", {
  region: "West Coast (CA1)",
  machineType: "Air",
  size: 50,
  billingType: "hourly",
  templateId: windows,
  teamId,
  email: "new.hire@example.com",
  password: newUserPassword,
  firstName: "New",
  lastName: "Hire",
  state: "off",
});

const adminId = teamUserId(adminEmail);
new MachineAccess("admin-on-workstation", { machineId: workstation.machineId, userId: adminId });

const streaming = new ResourceDelegation("streaming", {
  machineIds: [workstation.machineId],
  renewBeforeSeconds: 3600,
});

export const workstationId = workstation.machineId;
export const newHireId = newHire.machineId;
export const streamingToken = streaming.accessTokenId; // a secret
export const streamingExpiresAt = streaming.expiresAt;
