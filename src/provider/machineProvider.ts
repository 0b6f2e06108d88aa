/**
 * The Machine implementation behind the serialized stub: check, diff, create, read, update,
 * delete. Runs in the dynamic-provider plugin process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, provesAbsence } from "../client/errors";
import { templateTypeViolation } from "../client/constants";
import type { Machine as ApiMachine } from "../client/schemas";
import { CreateMachineRequestSchema, UpdateMachineRequestSchema } from "../client/requests";
import { schemaFailures } from "./checks";
import { changedKeys, diffFromTable } from "./diffTable";
import {
  MACHINE_DIFF_TABLE,
  createBody,
  machineOutputs,
  machinePropertyOf,
  observedPowerState,
  passwordMatches,
  POWER_STATES,
  updateBody,
  updateKeysAgainst,
  type MachineInputKey,
} from "./machineModel";
import { withAutoName } from "./naming";
import { ResourceInitError } from "./partialFailure";
import { engineProgress, type ProgressSink } from "./progress";
import {
  checkSettings,
  clientFor,
  pollScaleOf,
  providerClientHooks,
  type ProviderSettings,
} from "./settings";
import { settleMachine } from "./settle";
import { containsUnknown, UNKNOWN } from "./unknown";
import { confirmAbsent, pollUntilGone } from "./gone";

type Props = Record<string, unknown>;

const DEFAULT_WAIT_SECONDS = 1200;

/** Injected for tests: where progress goes. */
export const machineProviderDeps: { progress: ProgressSink } = { progress: engineProgress };

export const machineProvider = {
  async check(olds: Props, news: Props, settings: ProviderSettings): Promise<pulumi.dynamic.CheckResult> {
    checkSettings(settings);
    const inputs: Props = withAutoName(olds, news);
    if (inputs.state === undefined) inputs.state = "ready";
    const failures = [
      ...schemaFailures(CreateMachineRequestSchema, createBody(inputs), inputs, machinePropertyOf),
      ...schemaFailures(
        UpdateMachineRequestSchema,
        updateBody(inputs, Object.keys(inputs)),
        inputs,
        machinePropertyOf,
      ),
      ...providerFieldFailures(inputs),
    ];
    const ruleFailure = await templateRuleFailure(inputs, settings);
    if (ruleFailure) failures.push(ruleFailure);
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
    // Compare the password with its digest, the declared power state with the observed one;
    // an input left out means "leave as it is".
    const comparable: Props = { ...olds, password: news.password, state: observedPowerState(olds) };
    if (news.password !== undefined && !passwordMatches(news.password, olds.passwordDigest)) {
      comparable.password = olds.passwordDigest ?? null;
    }
    const declared = Object.fromEntries(Object.entries(news).filter(([, v]) => v !== undefined));
    const result = diffFromTable(MACHINE_DIFF_TABLE, pick(comparable, Object.keys(declared)), declared);
    return result;
  },

  async create(inputs: Props, settings: ProviderSettings): Promise<pulumi.dynamic.CreateResult> {
    const client = clientFor(settings);
    const target = (inputs.state ?? "ready") as "ready" | "off";
    let machine = inputs.adoptMachineId
      ? await adopt(client, String(inputs.adoptMachineId))
      : // An auto-name has a random suffix: no namesake to look for before creating.
        await client.machines.create(createBody(inputs), { uniqueName: inputs.__autoNamed === true });
    const id = machine.id;
    try {
      const provisionsTo = inputs.adoptMachineId ? undefined : target;
      machine = await converge(client, id, inputs, {
        target,
        provisionsTo,
        changed: [],
        current: machine,
        settings,
      });
      return { id, outs: machineOutputs(inputs, machine) };
    } catch (err) {
      throw await initFailure(client, id, inputs, machine, err);
    }
  },

  async read(id: string, props: Props, settings: ProviderSettings): Promise<pulumi.dynamic.ReadResult> {
    const client = clientFor(settings);
    let machine;
    try {
      machine = await client.machines.get(id);
    } catch (err) {
      if (provesAbsence(err)) return {};
      throw err;
    }
    const outs = machineOutputs(props, machine);
    // Inputs as the machine stands: a machine at rest in the other power state shows as drift.
    const resting = (POWER_STATES as readonly string[]).includes(machine.state) ? machine.state : outs.state;
    return { id, props: outs, inputs: { ...inputsFromOutputs(outs), state: resting } };
  },

  async update(
    id: string,
    olds: Props,
    news: Props,
    settings: ProviderSettings,
  ): Promise<pulumi.dynamic.UpdateResult> {
    const client = clientFor(settings);
    const changed = changedKeys(MACHINE_DIFF_TABLE, olds, news);
    let machine = await client.machines.get(id);
    try {
      const target = (news.state ?? "ready") as "ready" | "off";
      machine = await converge(client, id, news, { target, changed, current: machine, settings });
      return { outs: machineOutputs({ ...news, passwordDigest: olds.passwordDigest }, machine) };
    } catch (err) {
      throw await initFailure(client, id, { ...news, passwordDigest: olds.passwordDigest }, machine, err);
    }
  },

  async delete(id: string, props: Props, settings: ProviderSettings): Promise<void> {
    const client = clientFor(settings);
    try {
      await client.machines.destroy(id, { releasePublicIp: props.releasePublicIpOnDestroy === true });
    } catch (err) {
      // "Not found" may be about something else: gone only when a read proves it.
      if (!(err instanceof NotFoundError)) throw err;
      return confirmAbsent(() => client.machines.get(id), `machine ${id}`, err);
    }
    const { sleep, now } = providerClientHooks.options;
    const firstDelayMs = 250 * pollScaleOf(settings);
    await pollUntilGone(() => client.machines.get(id), waitMs(props), { sleep, now, firstDelayMs });
  },
};

interface ConvergeGoal {
  target: "ready" | "off";
  /** Where a machine still provisioning ends (create only). */
  provisionsTo?: "ready" | "off";
  /** Inputs the diff found changed. */
  changed: readonly string[];
  /** The machine as just read. */
  current: ApiMachine;
  settings: ProviderSettings;
}

/** Applies in-place fields that differ, then brings the machine to its power state. */
async function converge(client: ReturnType<typeof clientFor>, id: string, inputs: Props, goal: ConvergeGoal) {
  const keys = [...new Set([...goal.changed, ...updateKeysAgainst(inputs, goal.current)])];
  const body = updateBody(inputs, keys);
  let current = goal.current;
  if (Object.keys(body).length > 0) {
    await client.machines.update(id, body);
    // The update answers nothing; what it changed is known, and the power state it leaves alone.
    const { machineName, ...fields } = body;
    current = { ...current, ...fields, ...(machineName ? { name: machineName } : {}) } as ApiMachine;
  }
  return settleMachine(client, id, goal.target, {
    timeoutMs: waitMs(inputs),
    label: String(inputs.name ?? id),
    progress: machineProviderDeps.progress,
    provisionsTo: goal.provisionsTo,
    pollScale: pollScaleOf(goal.settings),
    now: providerClientHooks.options.now,
    current,
  });
}

/** The partial failure for a machine that exists but did not settle, with its latest state. */
async function initFailure(
  client: ReturnType<typeof clientFor>,
  id: string,
  inputs: Props,
  lastSeen: ApiMachine,
  cause: unknown,
): Promise<ResourceInitError> {
  const machine = await client.machines.get(id).catch(() => lastSeen);
  return new ResourceInitError(
    id,
    { ...machineOutputs(inputs, machine), __provider: inputs.__provider },
    cause,
  );
}

async function adopt(client: ReturnType<typeof clientFor>, machineId: string) {
  try {
    return await client.machines.get(machineId);
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new Error(`adoptMachineId: machine ${machineId} not found (or not visible to this API key)`);
    }
    throw err;
  }
}

function waitMs(inputs: Props): number {
  const seconds =
    typeof inputs.waitTimeoutSeconds === "number" ? inputs.waitTimeoutSeconds : DEFAULT_WAIT_SECONDS;
  return seconds * 1000;
}

function providerFieldFailures(inputs: Props): pulumi.dynamic.CheckFailure[] {
  const failures: pulumi.dynamic.CheckFailure[] = [];
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
  for (const key of ["releasePublicIpOnDestroy"] as const) {
    const v = inputs[key];
    if (v !== undefined && v !== UNKNOWN && typeof v !== "boolean") {
      failures.push({ property: key, reason: `${key} must be a boolean` });
    }
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

/** Inputs a refresh reports: every input key the outputs hold, with the actual values. */
function inputsFromOutputs(outs: Props): Props {
  const keys = [...(Object.keys(MACHINE_DIFF_TABLE) as MachineInputKey[]), "__resourceName", "__autoNamed"];
  return pick(
    outs,
    keys.filter((k) => k !== "password" && outs[k] !== undefined && outs[k] !== null),
  );
}

function pick(values: Props, keys: readonly string[]): Props {
  return Object.fromEntries(keys.filter((k) => k in values).map((k) => [k, values[k]]));
}
