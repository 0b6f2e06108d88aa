/**
 * The Machine inputs that `check` verifies against the API, because `up` would otherwise refuse
 * them only after the preview passed: the template (and its OS against the machine type), the
 * network and its region, the startup script, the team-only fields, and the machine to adopt.
 *
 * Only inputs that changed since the last `up` are looked up (the others were checked when they
 * were applied), each lookup at most once per plugin process, and never a value still unknown.
 */
import type * as pulumi from "@pulumi/pulumi";
import { templateTypeViolation } from "../../contract/constants";
import { provesAbsence } from "../../client/core/errors";
import { NEW_USER_FIELDS } from "../../contract/requestSchemas";
import { adoptionFailures, adoptionMismatches } from "./adoption";
import type { MachineInputs, MachineOutputs } from "./machineModel";
import { shownName } from "./converge";
import {
  membersOf,
  ask,
  findById,
  previewError,
  touched,
  type AccountMembers,
  type ReferenceContext,
} from "../shared/references";
import type { Call } from "../shared/resourceImplementation";
import { containsUnknown } from "../shared/unknown";

type Failure = pulumi.dynamic.CheckFailure;

const TEAM_KEYS = ["teamId", "userId", ...NEW_USER_FIELDS] as const;

/** Every reference failure of these inputs; the call's progress tells of what `up` will do (reuse a user). */
export async function machineReferenceFailures(
  olds: MachineOutputs,
  inputs: MachineInputs,
  ctx: ReferenceContext,
  call: Call,
): Promise<Failure[]> {
  const account = await membersOf(ctx);
  const checks: Promise<Failure[]>[] = [];
  if (touched(olds, inputs, ["templateId", "machineType"])) checks.push(templateFailures(inputs, ctx));
  if (inputs.adoptMachineId !== undefined) {
    // An adoption creates nothing: the machine itself is the reference (adoption.ts).
    if (touched(olds, inputs, ["adoptMachineId"])) checks.push(adoptionCheck(inputs, ctx));
  } else {
    if (touched(olds, inputs, ["networkId", "region"])) checks.push(networkFailures(inputs, ctx));
    if (touched(olds, inputs, ["scriptId"])) checks.push(scriptFailures(inputs, ctx));
    if (touched(olds, inputs, TEAM_KEYS)) checks.push(Promise.resolve(teamFailures(inputs, account, call)));
  }
  return (await Promise.all(checks)).flat();
}

async function templateFailures(inputs: MachineInputs, ctx: ReferenceContext): Promise<Failure[]> {
  const { templateId, machineType } = inputs;
  if (typeof templateId !== "string" || typeof machineType !== "string") return [];
  if (containsUnknown([templateId, machineType])) return [];
  const template = await findById(ctx, `template ${templateId}`, () =>
    ctx.client.templates.list({ id: templateId }),
  );
  if (template === null) {
    return [{ property: "templateId", reason: `templateId ${templateId} not found (see getTemplates)` }];
  }
  const violation = templateTypeViolation(template.os, machineType);
  return violation ? [{ property: "machineType", reason: violation }] : [];
}

async function networkFailures(inputs: MachineInputs, ctx: ReferenceContext): Promise<Failure[]> {
  const { networkId, region } = inputs;
  if (typeof networkId !== "string" || containsUnknown([networkId, region])) return [];
  const networks = await ask(ctx, "networks", () => ctx.client.networks.list());
  const network = networks.find((n) => n.id === networkId);
  if (network === undefined) {
    return [
      {
        property: "networkId",
        reason: `networkId ${networkId} not found among this account's networks (see getNetworks)`,
      },
    ];
  }
  if (typeof region === "string" && network.region !== region) {
    return [
      {
        property: "networkId",
        reason: `networkId ${networkId} is in region ${network.region}, not ${region}`,
      },
    ];
  }
  return [];
}

async function scriptFailures(inputs: MachineInputs, ctx: ReferenceContext): Promise<Failure[]> {
  const { scriptId } = inputs;
  if (typeof scriptId !== "string" || containsUnknown(scriptId)) return [];
  const script = await findById(ctx, `script ${scriptId}`, () => ctx.client.scripts.list({ id: scriptId }));
  return script === null
    ? [{ property: "scriptId", reason: `scriptId ${scriptId} not found (see getScripts)` }]
    : [];
}

/**
 * The account rules of a create (docs/api.md, "Accounts, keys and who may do what"), from the
 * account asked once per process.
 */
function teamFailures(inputs: MachineInputs, account: AccountMembers, call: Call): Failure[] {
  if (containsUnknown(TEAM_KEYS.map((key) => inputs[key]))) return [];
  const newUser = NEW_USER_FIELDS.some((field) => inputs[field] !== undefined);
  const failures: Failure[] = [];
  if (typeof inputs.userId === "string" && !account.users.some((u) => u.id === inputs.userId)) {
    failures.push({
      property: "userId",
      reason: `userId ${inputs.userId} is not a user of this account (see getUsers)`,
    });
  }
  if (account.teamId === null) {
    if (inputs.teamId !== undefined) {
      failures.push({
        property: "teamId",
        reason: "teamId needs a team account: this API key belongs to an individual account",
      });
    }
    if (newUser) {
      failures.push({
        property: "email",
        reason:
          "email, password, firstName and lastName create a team user: they need a team administrator's key (this key belongs to an individual account)",
      });
    }
    return failures;
  }
  if (inputs.teamId !== account.teamId) {
    const got = inputs.teamId === undefined ? "none given" : `got ${JSON.stringify(inputs.teamId)}`;
    failures.push({
      property: "teamId",
      reason: `teamId must be this key's team, ${account.teamId} (${got})`,
    });
  }
  if (inputs.userId === undefined && !newUser) {
    failures.push({
      property: "userId",
      reason:
        "a team machine needs its user: userId, or email, password, firstName and lastName of a new team user",
    });
  }
  if (newUser) sayIfUserExists(inputs, account, call);
  return failures;
}

/** Preview says what `up` will do with a new-user email that a team user already has. */
function sayIfUserExists(inputs: MachineInputs, account: AccountMembers, call: Call): void {
  const email = String(inputs.email).toLowerCase();
  const user = account.users.find((u) => u.email.toLowerCase() === email);
  if (user === undefined) return;
  call.progress(
    `machine ${shownName(call, inputs, call.resource.name ?? "")}: team user ${user.email} already exists (${user.id}); ` +
      "the machine will be assigned to that user, whose password and names stay as they are",
  );
}

async function adoptionCheck(inputs: MachineInputs, ctx: ReferenceContext): Promise<Failure[]> {
  const machineId = inputs.adoptMachineId;
  if (typeof machineId !== "string" || containsUnknown(machineId)) return [];
  try {
    const machine = await ctx.client.machines.get(machineId);
    return adoptionFailures(machineId, adoptionMismatches(inputs, machine));
  } catch (err) {
    if (!provesAbsence(err)) throw previewError(err, ctx.baseUrl);
    return [{ property: "adoptMachineId", reason: adoptNotFound(machineId) }];
  }
}

/** The message for a machine to adopt that the API does not know. */
export function adoptNotFound(machineId: string): string {
  return `adoptMachineId: machine ${machineId} not found (or not visible to this API key)`;
}
