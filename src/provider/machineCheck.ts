/**
 * `check` of Machine: every input validated where it can be (the shared request schemas, the
 * provider's own fields), then the references that need the API (the template's OS, the machine
 * to adopt), so `pulumi preview` fails before any create and names the property.
 */
import type * as pulumi from "@pulumi/pulumi";
import { templateTypeViolation } from "../client/constants";
import { CreateMachineRequestSchema, UpdateMachineRequestSchema } from "../client/requests";
import { provesAbsence } from "../client/errors";
import { adoptionFailures, adoptionInputFailures, adoptionMismatches, isAdoption } from "./adoption";
import { schemaFailures } from "./checks";
import { createBody, machinePropertyOf, POWER_STATES, updateBody } from "./machineModel";
import { withAutoName } from "./naming";
import { checkSettings, clientFor, type ProviderSettings } from "./settings";
import { containsUnknown, UNKNOWN } from "./unknown";

type Props = Record<string, unknown>;
type Failure = pulumi.dynamic.CheckFailure;

/**
 * A name for the schema check of an adoption without a declared name: the machine keeps its
 * own, so the required `machineName` of a create body is not the user's to give.
 */
const ADOPTED_NAME = "adopted";

/** The whole `check` of Machine. */
export async function checkMachine(olds: Props, news: Props, settings: ProviderSettings) {
  checkSettings(settings);
  const adopting = isAdoption(olds, news);
  // An adopted machine keeps its own name unless one is declared: never an auto-name (a rename).
  const inputs: Props = adopting && news.name === undefined ? { ...news } : withAutoName(olds, news);
  if (inputs.state === undefined) inputs.state = "ready";
  const failures = [...localFailures(inputs, adopting), ...(await remoteFailures(olds, inputs, settings))];
  return { inputs, failures };
}

function localFailures(inputs: Props, adopting: boolean): Failure[] {
  const named = adopting && inputs.name === undefined ? { ...inputs, name: ADOPTED_NAME } : inputs;
  return [
    ...schemaFailures(CreateMachineRequestSchema, createBody(named), inputs, machinePropertyOf),
    ...schemaFailures(
      UpdateMachineRequestSchema,
      updateBody(inputs, Object.keys(inputs)),
      inputs,
      machinePropertyOf,
    ),
    ...providerFieldFailures(inputs),
    ...(inputs.adoptMachineId !== undefined ? adoptionInputFailures(inputs) : []),
  ];
}

async function remoteFailures(olds: Props, inputs: Props, settings: ProviderSettings): Promise<Failure[]> {
  const failures: Failure[] = [];
  const ruleFailure = await templateRuleFailure(inputs, settings);
  if (ruleFailure) failures.push(ruleFailure);
  const adoptId = inputs.adoptMachineId;
  if (typeof adoptId === "string" && adoptId !== UNKNOWN && adoptId !== olds.adoptMachineId) {
    failures.push(...(await adoptionCheck(adoptId, inputs, settings)));
  }
  return failures;
}

/** The machine to adopt, compared with the declared inputs: one read, only when adoptMachineId changed. */
async function adoptionCheck(
  machineId: string,
  inputs: Props,
  settings: ProviderSettings,
): Promise<Failure[]> {
  try {
    const machine = await clientFor(settings).machines.get(machineId);
    return adoptionFailures(machineId, adoptionMismatches(inputs, machine));
  } catch (err) {
    if (!provesAbsence(err)) throw err;
    return [{ property: "adoptMachineId", reason: adoptNotFound(machineId) }];
  }
}

/** The message for a machine to adopt that the API does not know. */
export function adoptNotFound(machineId: string): string {
  return `adoptMachineId: machine ${machineId} not found (or not visible to this API key)`;
}

function providerFieldFailures(inputs: Props): Failure[] {
  const failures: Failure[] = [];
  const state = inputs.state;
  if (state !== UNKNOWN && !(POWER_STATES as readonly unknown[]).includes(state)) {
    failures.push({
      property: "state",
      reason: `state must be one of: ${POWER_STATES.join(", ")} (got ${JSON.stringify(state)})`,
    });
  }
  const wait = inputs.waitTimeoutSeconds;
  if (wait !== undefined && wait !== UNKNOWN && !(typeof wait === "number" && wait > 0 && wait <= 86400)) {
    failures.push({
      property: "waitTimeoutSeconds",
      reason: "waitTimeoutSeconds must be a number of seconds between 1 and 86400",
    });
  }
  const release = inputs.releasePublicIpOnDestroy;
  if (release !== undefined && release !== UNKNOWN && typeof release !== "boolean") {
    failures.push({
      property: "releasePublicIpOnDestroy",
      reason: "releasePublicIpOnDestroy must be a boolean",
    });
  }
  return failures;
}

/**
 * Template OS by base URL and template id, for the life of the plugin process: a preview of
 * many machines on one template then costs one lookup, not one per machine.
 */
const templateOsCache = new Map<string, Promise<string | null>>();

function templateOs(settings: ProviderSettings, templateId: string): Promise<string | null> {
  const key = `${settings.baseUrl ?? ""} ${templateId}`;
  let os = templateOsCache.get(key);
  if (!os) {
    os = clientFor(settings)
      .templates.list({ id: templateId })
      .then(([template]) => template?.os ?? null);
    // Only a found template is remembered: a failure or a miss is asked again next time.
    os.then(
      (found) => found === null && templateOsCache.delete(key),
      () => templateOsCache.delete(key),
    );
    templateOsCache.set(key, os);
  }
  return os;
}

/** The template/type rule needs the template's OS: one read, skipped when it cannot be known. */
async function templateRuleFailure(inputs: Props, settings: ProviderSettings) {
  const { templateId, machineType } = inputs;
  if (typeof templateId !== "string" || typeof machineType !== "string") return undefined;
  if (containsUnknown([templateId, machineType])) return undefined;
  let os: string | null;
  try {
    os = await templateOs(settings, templateId);
  } catch {
    return undefined; // no credentials or no network at preview: the API enforces the rule at create
  }
  if (os === null)
    return { property: "templateId", reason: `templateId ${templateId} not found (see getTemplates)` };
  const violation = templateTypeViolation(os, machineType);
  return violation ? { property: "machineType", reason: violation } : undefined;
}
