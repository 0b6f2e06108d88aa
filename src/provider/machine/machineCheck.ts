/**
 * `check` of Machine: every input validated where it can be (the shared request schemas, the
 * provider's own fields), then the references that need the API (machineReferences.ts), so
 * `pulumi preview` fails before any create and names the property.
 */
import type * as pulumi from "@pulumi/pulumi";
import { CreateMachineRequestSchema, UpdateMachineRequestSchema } from "../../contract/requestSchemas";
import { adoptionInputFailures, isAdoption } from "./adoption";
import { schemaFailures } from "../shared/checks";
import {
  createBody,
  machinePropertyOf,
  POWER_STATES,
  updateBody,
  MachineOwnSettingsSchema,
  type MachineInputs,
  type MachineOutputs,
} from "./machineModel";
import { machineReferenceFailures } from "./machineReferences";
import { withAutoName } from "../shared/naming";
import { referenceContext } from "../shared/references";
import type { Call, CheckResult, EngineProps } from "../shared/resourceImplementation";
import { UNKNOWN } from "../shared/unknown";

type Failure = pulumi.dynamic.CheckFailure;

/**
 * A name for the schema check of an adoption without a declared name: the machine keeps its
 * own, so the required `machineName` of a create body is not the user's to give.
 */
const ADOPTED_NAME = "adopted";

/**
 * A template for the schema check of a machine that exists (an update, or a machine `pulumi
 * import` read): the API never reports a machine's template and only a create sends one, so an
 * existing machine declared without it is not refused (the program `pulumi import` prints has none
 * when the template cannot be told). A replacement's create asks for it (machineProvider.ts).
 */
const EXISTING_TEMPLATE = "existing";

/** The whole `check` of Machine. */
export async function checkMachine(
  olds: MachineOutputs,
  news: EngineProps,
  call: Call,
): Promise<CheckResult<MachineInputs>> {
  const ctx = referenceContext(call.account);
  const adopting = isAdoption(olds, news);
  // An adopted machine keeps its own name unless one is declared: never an auto-name (a rename).
  const named =
    adopting && news.name === undefined ? { inputs: news, autoNamed: false } : withAutoName(olds, news, call);
  const inputs: EngineProps = { ...named.inputs };
  if (inputs.state === undefined) inputs.state = "ready";
  const exists = Object.keys(olds).length > 0;
  const local = localFailures(inputs, adopting, exists);
  const remote = await machineReferenceFailures(olds, inputs, ctx, call);
  return { inputs: withNumericSettings(inputs), failures: [...local, ...remote], autoNamed: named.autoNamed };
}

/**
 * A numeric setting declared as a numeric string ("3", which the API takes) becomes the number
 * the machine will report, so the next diff compares 3 with 3 instead of finding a change on
 * every `up`. Inputs that do not parse are left for the failures to name.
 */
function withNumericSettings(inputs: EngineProps): EngineProps {
  const parsed = UpdateMachineRequestSchema.safeParse(updateBody(inputs, Object.keys(inputs)));
  if (!parsed.success) return inputs;
  const normalized = { ...inputs };
  for (const [field, value] of Object.entries(parsed.data)) {
    const key = machinePropertyOf(field);
    if (typeof value === "number" && typeof inputs[key] === "string") normalized[key] = value;
  }
  return normalized;
}

function localFailures(inputs: EngineProps, adopting: boolean, exists: boolean): Failure[] {
  const named = { ...inputs };
  if (adopting && inputs.name === undefined) named.name = ADOPTED_NAME;
  if (exists && inputs.templateId === undefined) named.templateId = EXISTING_TEMPLATE;
  const updateFields = updateBody(inputs, Object.keys(inputs));
  return [
    ...schemaFailures(CreateMachineRequestSchema, createBody(named), inputs, machinePropertyOf),
    ...schemaFailures(UpdateMachineRequestSchema, updateFields, inputs, machinePropertyOf),
    ...providerFieldFailures(inputs),
    ...(inputs.adoptMachineId !== undefined ? adoptionInputFailures(inputs) : []),
  ];
}

function providerFieldFailures(inputs: EngineProps): Failure[] {
  const failures: Failure[] = [];
  const state = inputs.state;
  if (state !== UNKNOWN && !(POWER_STATES as readonly unknown[]).includes(state)) {
    failures.push({
      property: "state",
      reason: `state must be one of: ${POWER_STATES.join(", ")} (got ${JSON.stringify(state)})`,
    });
  }
  const wait = inputs.waitTimeoutSeconds;
  const waitRule = MachineOwnSettingsSchema.shape.waitTimeoutSeconds;
  if (wait !== undefined && wait !== UNKNOWN && !waitRule.safeParse(wait).success) {
    failures.push({
      property: "waitTimeoutSeconds",
      reason: `waitTimeoutSeconds must be a whole number of seconds between 1 and 86400 (got ${JSON.stringify(wait)})`,
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
