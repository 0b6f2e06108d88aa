/**
 * The Machine implementation behind the serialized stub: check, diff, create, read, update,
 * delete. Runs in the dynamic-provider plugin process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, provesAbsence } from "../client/errors";
import type { Machine as ApiMachine } from "../client/schemas";
import { adoptionMismatches, adoptionRefusal, replacementOfAdopted } from "./adoption";
import { changedKeys, diffFromTable } from "./diffTable";
import { confirmAbsent, pollUntilGone, requireOwnerInAccount } from "./gone";
import { checkMachine } from "./machineCheck";
import { machineFromList } from "./listSnapshot";
import { machineWatcherFor } from "./machineWatcher";
import { NAMING_INPUT_KEYS } from "./naming";
import { adoptNotFound } from "./machineReferences";
import { PROCESS_CONTEXT, nowOf, type ProviderContext } from "./context";
import {
  MACHINE_DIFF_TABLE,
  createBody,
  machineOutputs,
  observedPowerState,
  passwordMatches,
  POWER_STATES,
  updateBody,
  updateKeysAgainst,
  type MachineInputKey,
  type PowerState,
} from "./machineModel";
import { ResourceInitError } from "./partialFailure";
import { accountKey, clientFor, pollScaleOf, type ProviderSettings } from "./settings";
import { settleMachine, type SettleOptions } from "./settle";
import { withExistingTeamUser } from "./teamUser";

type Props = Record<string, unknown>;

const DEFAULT_WAIT_SECONDS = 1200;

/**
 * The Machine implementation on `context` (lookups, time, progress): the plugin's one
 * (`machineProvider`) shares the process's context; a test builds its own.
 */
export function createMachineProvider(context: ProviderContext) {
  return {
    ...machineOperations(context),
    check: (olds: Props, news: Props, settings: ProviderSettings) =>
      checkMachine(olds, news, settings, context),
  };
}

const machineOperations = (context: ProviderContext) => ({
  async diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
    // Compare the password with its digest, the declared power state with the observed one;
    // an input left out means "leave as it is".
    const comparable: Props = { ...olds, password: news.password, state: observedPowerState(olds) };
    if (news.password !== undefined && !passwordMatches(news.password, olds.passwordDigest)) {
      comparable.password = olds.passwordDigest ?? null;
    }
    const declared = Object.fromEntries(Object.entries(news).filter(([, v]) => v !== undefined));
    const result = diffFromTable(MACHINE_DIFF_TABLE, pick(comparable, Object.keys(declared)), declared);
    const refusal = replacementOfAdopted(id, news, result.replaces ?? []);
    if (refusal) throw refusal;
    return result;
  },

  async create(inputs: Props, settings: ProviderSettings): Promise<pulumi.dynamic.CreateResult> {
    const client = clientFor(settings, context);
    if (inputs.adoptMachineId !== undefined) return adoptExisting(client, inputs, settings, context);
    const target = (inputs.state ?? "ready") as PowerState;
    const body = await withExistingTeamUser(client, createBody(inputs), context.progress);
    // Namesakes are listed before the first attempt for auto-names too: an auto-name is fixed by
    // the stack and the resource (naming.ts), so a machine kept by retainOnDelete, or left by an
    // earlier killed `up`, has this very name and spec, and a lost answer must never take it.
    let machine = await client.machines.create(body, {
      // A late or lost answer is waited for and looked into, never sent again blindly: say so.
      onProgress: context.progress,
    });
    const id = machine.id;
    try {
      const goal = { target, provisionsTo: target, changed: [], current: machine, settings, context };
      machine = await converge(client, id, inputs, goal);
      return { id, outs: machineOutputs(inputs, machine) };
    } catch (err) {
      throw await initFailure(client, id, inputs, machine, err);
    }
  },

  async read(id: string, props: Props, settings: ProviderSettings): Promise<pulumi.dynamic.ReadResult> {
    const client = clientFor(settings, context);
    let machine;
    try {
      machine = await readMachine(client, id, props, settings, context);
    } catch (err) {
      if (!provesAbsence(err)) throw err;
      await requireOwnerInAccount(id, props, client);
      return {};
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
    const client = clientFor(settings, context);
    const changed = changedKeys(MACHINE_DIFF_TABLE, olds, news);
    let machine = await client.machines.get(id).catch((err: unknown) => {
      throw provesAbsence(err) ? deletedOutOfBand(id, err) : err;
    });
    try {
      const target = (news.state ?? "ready") as "ready" | "off";
      machine = await converge(client, id, news, { target, changed, current: machine, settings, context });
      return { outs: machineOutputs({ ...news, passwordDigest: olds.passwordDigest }, machine) };
    } catch (err) {
      throw await initFailure(client, id, { ...news, passwordDigest: olds.passwordDigest }, machine, err);
    }
  },

  async delete(id: string, props: Props, settings: ProviderSettings): Promise<void> {
    const client = clientFor(settings, context);
    try {
      await client.machines.destroy(id, { releasePublicIp: props.releasePublicIpOnDestroy === true });
    } catch (err) {
      // "Not found" may be about something else: gone only when a read proves it.
      if (!(err instanceof NotFoundError)) throw err;
      await confirmAbsent(() => client.machines.get(id), `machine ${id}`, err);
      return requireOwnerInAccount(id, props, client);
    }
    const { sleep, now } = context.timing;
    const firstDelayMs = 250 * pollScaleOf(settings);
    await pollUntilGone(() => client.machines.get(id), waitMs(props), { sleep, now, firstDelayMs });
  },
});

/**
 * The machine for a refresh: from the listing shared by the reads arriving together
 * (listSnapshot.ts) when it can stand for a show, else its own show (whose 404 says it is gone).
 */
async function readMachine(
  client: Client,
  id: string,
  props: Props,
  settings: ProviderSettings,
  context: ProviderContext,
): Promise<ApiMachine> {
  const listAll = () => client.machines.listAll().collect({ max: MAX_LISTED_MACHINES });
  const listed = await context.snapshots.lookup(`${accountKey(settings)} machines`, listAll, id);
  return (listed && machineFromList(listed, props)) ?? client.machines.get(id);
}

/** Bound on the machines a shared listing collects; far above any sane account. */
const MAX_LISTED_MACHINES = 100_000;

/** The error for a machine the stack holds but the API no longer has. */
function deletedOutOfBand(id: string, cause: Error): Error {
  return new Error(
    `machine ${id} no longer exists (deleted outside Pulumi?): run \`pulumi refresh\` to drop it from the stack, ` +
      `then \`pulumi up\` to create it again (${cause.message})`,
  );
}

/** The Machine implementation the runtime dispatches to. */
export const machineProvider = createMachineProvider(PROCESS_CONTEXT);

type Client = ReturnType<typeof clientFor>;

interface ConvergeGoal {
  target: PowerState;
  /** Where a machine still provisioning ends (create only). */
  provisionsTo?: PowerState;
  /** Inputs the diff found changed. */
  changed: readonly string[];
  /** The machine as just read. */
  current: ApiMachine;
  settings: ProviderSettings;
  context: ProviderContext;
}

/** Applies in-place fields that differ, then brings the machine to its power state. */
async function converge(client: Client, id: string, inputs: Props, goal: ConvergeGoal) {
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
    ...settleOptions(inputs, goal.settings, current, goal.context),
    provisionsTo: goal.provisionsTo,
  });
}

function settleOptions(
  inputs: Props,
  settings: ProviderSettings,
  current: ApiMachine,
  context: ProviderContext,
): SettleOptions {
  return {
    timeoutMs: waitMs(inputs),
    label: String(inputs.name ?? current.name),
    progress: context.progress,
    pollScale: pollScaleOf(settings),
    now: () => nowOf(context),
    current,
    // Waits of one account share one watcher's listings instead of polling one by one.
    watcher: machineWatcherFor(context, settings),
  };
}

/** The partial failure for a machine that exists but did not settle, with its latest state. */
async function initFailure(
  client: Client,
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

/**
 * Adoption: the machine is taken as it is or not at all (adoption.ts). It may still be on its way
 * to the declared power state (starting, stopping): that is waited for, never acted on. Every
 * failure here is a plain error, not a partial failure: nothing is adopted, so a later destroy
 * cannot touch the machine.
 */
async function adoptExisting(
  client: Client,
  inputs: Props,
  settings: ProviderSettings,
  context: ProviderContext,
) {
  const id = String(inputs.adoptMachineId);
  const found = await client.machines.get(id).catch((err: unknown) => {
    throw provesAbsence(err) ? new Error(adoptNotFound(id)) : err;
  });
  const mismatches = adoptionMismatches(inputs, found);
  if (mismatches.length > 0) throw adoptionRefusal(id, mismatches);
  const target = (inputs.state ?? "ready") as PowerState;
  try {
    const machine = await settleMachine(client, id, target, {
      ...settleOptions(inputs, settings, found, context),
      act: false,
    });
    return { id, outs: machineOutputs(inputs, machine) };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`adoptMachineId: machine ${id} was not adopted, and nothing was changed: ${why}`);
  }
}

function waitMs(inputs: Props): number {
  const seconds =
    typeof inputs.waitTimeoutSeconds === "number" ? inputs.waitTimeoutSeconds : DEFAULT_WAIT_SECONDS;
  return seconds * 1000;
}

/** Inputs a refresh reports: every input key the outputs hold, with the actual values. */
function inputsFromOutputs(outs: Props): Props {
  const keys = [...(Object.keys(MACHINE_DIFF_TABLE) as MachineInputKey[]), ...NAMING_INPUT_KEYS];
  return pick(
    outs,
    keys.filter((k) => k !== "password" && outs[k] !== undefined && outs[k] !== null),
  );
}

function pick(values: Props, keys: readonly string[]): Props {
  return Object.fromEntries(keys.filter((k) => k in values).map((k) => [k, values[k]]));
}
