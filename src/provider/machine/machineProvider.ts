/**
 * The Machine implementation: check, diff, create, read, update, delete, on the account and with
 * the engine's facts each call is given (both doors call it: implementations.ts).
 */
import { NotFoundError, provesAbsence } from "../../client/core/errors";
import type { Machine as ApiMachine } from "../../contract/schemas";
import { adoptionMismatches, adoptionRefusal, replacementOfAdopted, reportedInputs } from "./adoption";
import { changedKeys, diffFromTable } from "../shared/diffTable";
import { confirmAbsent, pollUntilGone, requireOwnerInAccount } from "../shared/gone";
import { checkMachine } from "./machineCheck";
import { machineFromList } from "../account/listSnapshot";
import { creatingNameOf, decideLeftovers, machineListingsFor, nameToGet, takeOverLine } from "./leftovers";
import { adoptNotFound } from "./machineReferences";
import {
  MACHINE_DIFF_TABLE,
  createBody,
  machineOutputs,
  observedPowerState,
  passwordMatches,
  isPowerState,
  type MachineInputKey,
  type MachineInputs,
  type MachineOutputs,
} from "./machineModel";
import { explainTimeout, tightest, withinBound } from "../shared/operationOptions";
import { ResourceInitError } from "../shared/partialFailure";
import type { EngineProps, ResourceImplementation } from "../shared/resourceImplementation";
import type { Call } from "../shared/resourceImplementation";
import {
  commitName,
  converge,
  deadlineOf,
  DEFAULT_WAIT_SECONDS,
  settleOptions,
  shownName,
  waitBound,
} from "./converge";
import { settleMachine } from "./settle";
import { importedTemplate } from "./importedTemplate";
import { withExistingTeamUser } from "./teamUser";

/** The Machine implementation's own type. */
export type MachineImplementation = ResourceImplementation<MachineInputs, MachineOutputs>;

/** The Machine implementation both doors dispatch to. */
export const machineProvider: MachineImplementation = {
  check: (olds, news, call) => checkMachine(olds, news, call),

  async diff(_id, olds, news) {
    // Compare the password with its digest, the declared power state with the observed one;
    // an input left out means "leave as it is".
    const comparable: EngineProps = { ...olds, password: news.password, state: observedPowerState(olds) };
    if (news.password !== undefined && !passwordMatches(news.password, olds.passwordDigest)) {
      comparable.password = olds.passwordDigest ?? null;
    }
    const declared: EngineProps = Object.fromEntries(Object.entries(news).filter(([, v]) => v !== undefined));
    // An input the API never reports and the state does not hold (a machine taken in by `pulumi
    // import`: its template, its snapshot flags) is not known to differ: it is recorded as declared.
    for (const key of UNREPORTED_INPUTS) if (comparable[key] === undefined) comparable[key] = declared[key];
    // A provider setting the state does not hold (a machine taken in by import, whose program's
    // SDK sends the schema's defaults) stands at its default: declared as the default, no change.
    for (const [key, value] of Object.entries(SETTING_DEFAULTS)) comparable[key] ??= value;
    const before = pick(comparable, Object.keys(declared));
    const changed = changedKeys(MACHINE_DIFF_TABLE, before, declared);
    return { ...diffFromTable(MACHINE_DIFF_TABLE, before, declared), changed };
  },

  replacing(id, olds, news, replaces, call) {
    const refusal = replacementOfAdopted(id, news, replaces);
    if (refusal) throw refusal;
    if (replaces.includes("scriptId")) call.warn(scriptReplacementWarning(id, olds, call));
  },

  async create(inputs, call) {
    const client = call.account.client;
    if (inputs.adoptMachineId !== undefined) return adoptExisting(inputs, call);
    if (inputs.templateId === undefined) throw new Error(NO_TEMPLATE);
    const deadline = deadlineOf(inputs, call);
    const target = inputs.state ?? "ready";
    const body = await withExistingTeamUser(client, createBody(inputs), call.progress);
    const name = body.machineName;
    // Before anything is sent: a machine an unfinished create of this resource left is taken
    // over, and one this resource's auto-name already stands for stops the create (leftovers.ts).
    // Creates starting together share that listing (account/freshListings.ts).
    const found = await machineListingsFor(call.account).list();
    const leftover = decideLeftovers(inputs, name, found, call.resource);
    if (leftover.take) call.warn(takeOverLine(shownName(call, inputs, name), leftover));
    // The machine carries its creating name until the create has finished (converge's commitName),
    // and no machine had that name: a lost answer takes the one that appears, never sends again blindly.
    let machine =
      leftover.take ??
      (await client.machines.create(
        { ...body, machineName: creatingNameOf(call.resource, name) },
        { uniqueName: true, onProgress: call.progress, label: shownName(call, inputs, name) },
      ));
    const id = machine.id;
    try {
      const goal = {
        target,
        provisionsTo: target,
        changed: [],
        current: machine,
        call,
        deadline,
        commitName: name,
      };
      machine = await converge(client, id, inputs, goal);
      return { id, outs: machineOutputs(inputs, machine) };
    } catch (err) {
      // In the stack from here on (a partial failure), so its name need not tell anything apart.
      const named = await commitName(client, id, machine, name).catch(() => machine);
      throw await initFailure(client, id, inputs, named, explainTimeout(err, deadline.bound));
    }
  },

  async read(id, props, call) {
    const client = call.account.client;
    let machine;
    try {
      machine = await readMachine(call, id, props);
    } catch (err) {
      if (!provesAbsence(err)) throw err;
      await requireOwnerInAccount(id, props, client);
      return {};
    }
    // A machine read by id alone (`pulumi import`, `Machine.get`) has no stored inputs: the size
    // and billing type the API reports stand for them (never the declared ones of stored state),
    // and its template when the API's templates tell it.
    const template =
      props.templateId === undefined ? await importedTemplate(call.account.client, machine) : {};
    const outs = machineOutputs(
      { ...pick(reportedInputs(machine), ["size", "billingType"]), ...template, ...props },
      machine,
    );
    // Inputs as the machine stands: a machine at rest in the other power state shows as drift.
    const resting = isPowerState(machine.state) ? machine.state : outs.state;
    const inputs: EngineProps = { ...inputsFromOutputs(outs), state: resting };
    if (typeof outs.name === "string") inputs.name = nameToGet(outs.name, props.name, call.resource);
    return { id, props: outs, inputs };
  },

  async update(id, olds, news, call) {
    const client = call.account.client;
    const deadline = deadlineOf(news, call);
    const changed = changedKeys(MACHINE_DIFF_TABLE, olds, news);
    let machine = await client.machines.get(id).catch((err: unknown) => {
      throw provesAbsence(err) ? deletedOutOfBand(id, err) : err;
    });
    try {
      const target = news.state ?? "ready";
      const goal = { target, changed, current: machine, call, deadline };
      machine = await converge(client, id, news, goal);
      return { outs: machineOutputs({ ...news, passwordDigest: olds.passwordDigest }, machine) };
    } catch (err) {
      const cause = explainTimeout(err, deadline.bound);
      throw await initFailure(client, id, { ...news, passwordDigest: olds.passwordDigest }, machine, cause);
    }
  },

  async delete(id, props, call) {
    const client = call.account.client;
    const bound = tightest(call.timeout, waitBound(props));
    // A delete cut short leaves the machine in the stack, so the whole operation may be bounded.
    return withinBound(bound, async (signal) => {
      try {
        const releasePublicIp = props.releasePublicIpOnDestroy === true;
        await client.machines.destroy(id, { releasePublicIp, signal });
      } catch (err) {
        // "Not found" may be about something else: gone only when a read proves it.
        if (!(err instanceof NotFoundError)) throw err;
        await confirmAbsent(() => client.machines.get(id, { signal }), `machine ${id}`, err);
        return requireOwnerInAccount(id, props, client);
      }
      const { sleep, now } = call.account.context.timing;
      const firstDelayMs = 250 * call.account.pollScale;
      await pollUntilGone(() => client.machines.get(id, { signal }), bound.ms, { sleep, now, firstDelayMs });
    });
  },
};

/**
 * The machine for a refresh: from the listing shared by the reads arriving together
 * (listSnapshot.ts) when it can stand for a show, else its own show (whose 404 says it is gone).
 */
async function readMachine(call: Call, id: string, props: MachineOutputs): Promise<ApiMachine> {
  const { client, key, context } = call.account;
  const listAll = () => client.machines.listAll().collect({ max: MAX_LISTED_MACHINES });
  const listed = await context.snapshots.lookup(`${key} machines`, listAll, id);
  return (listed && machineFromList(listed, props)) ?? client.machines.get(id);
}

/** Why a machine without a template cannot be created (a replacement of an imported one). */
const NO_TEMPLATE =
  "templateId: a new machine needs a template, and none is declared (the machine this replaces was taken in by " +
  "`pulumi import`, which could not tell its template): declare templateId (see getTemplates)";

/** Bound on the machines a shared listing collects; far above any sane account. */
const MAX_LISTED_MACHINES = 100_000;

/**
 * The inputs the API never reports back (adoption.ts): a state without them (an imported machine)
 * cannot tell whether the declared value differs, so the declared one is taken.
 */
const UNREPORTED_INPUTS = [
  "templateId",
  "assignPublicIp",
  "takeInitialSnapshot",
  "markSnapshotAsRestorePoint",
  "notificationEmail",
  "email",
  "password",
  "firstName",
  "lastName",
] as const;

/** The provider's own settings with the value each has when left out (converge.ts, delete). */
const SETTING_DEFAULTS: EngineProps = {
  waitTimeoutSeconds: DEFAULT_WAIT_SECONDS,
  releasePublicIpOnDestroy: false,
};

/** The error for a machine the stack holds but the API no longer has. */
function deletedOutOfBand(id: string, cause: Error): Error {
  return new Error(
    `machine ${id} no longer exists (deleted outside Pulumi?): run \`pulumi refresh\` to drop it from the stack, ` +
      `then \`pulumi up\` to create it again (${cause.message})`,
  );
}

type Client = Call["account"]["client"];

/**
 * Why a changed `scriptId` costs the machine, and what to write instead: the engine's replace
 * marker alone does not say that the disk goes with it.
 */
function scriptReplacementWarning(id: string, olds: MachineOutputs, call: Call): string {
  const name = typeof olds.name === "string" ? `${shownName(call, olds, olds.name)} (${id})` : id;
  return (
    `machine ${name} will be REPLACED because its scriptId changes (an edited Script is a new script with a new id), ` +
    `and the API fixes a machine's scriptId at create: the machine is destroyed with its disk and a new one is created. ` +
    `To change a machine's startup script and keep the machine, leave scriptId out of the Machine and create the Script ` +
    `with machineId: <machine>.machineId (README, "Startup scripts that change"); or add ignoreChanges: ["scriptId"] to keep this machine as it is`
  );
}

/** The partial failure for a machine that exists but did not settle, with its latest state. */
async function initFailure(
  client: Client,
  id: string,
  inputs: MachineInputs | MachineOutputs,
  lastSeen: ApiMachine,
  cause: unknown,
): Promise<ResourceInitError> {
  const machine = await client.machines.get(id).catch(() => lastSeen);
  return new ResourceInitError(id, machineOutputs(inputs, machine), cause);
}

/**
 * Adoption: the machine is taken as it is or not at all (adoption.ts). It may still be on its way
 * to the declared power state (starting, stopping): that is waited for, never acted on. Every
 * failure here is a plain error, not a partial failure: nothing is adopted, so a later destroy
 * cannot touch the machine.
 */
async function adoptExisting(inputs: MachineInputs, call: Call) {
  const client = call.account.client;
  const id = String(inputs.adoptMachineId);
  const found = await client.machines.get(id).catch((err: unknown) => {
    throw provesAbsence(err) ? new Error(adoptNotFound(id)) : err;
  });
  const mismatches = adoptionMismatches(inputs, found);
  if (mismatches.length > 0) throw adoptionRefusal(id, mismatches);
  const target = inputs.state ?? "ready";
  try {
    const machine = await settleMachine(client, id, target, {
      ...settleOptions(inputs, call, found),
      act: false,
    });
    return { id, outs: machineOutputs(inputs, machine) };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`adoptMachineId: machine ${id} was not adopted, and nothing was changed: ${why}`);
  }
}

/** Inputs a refresh reports: every input key the outputs hold, with the actual values. */
function inputsFromOutputs(outs: MachineOutputs): EngineProps {
  const keys = Object.keys(MACHINE_DIFF_TABLE) as MachineInputKey[];
  return pick(
    outs,
    keys.filter((k) => k !== "password" && outs[k] !== undefined && outs[k] !== null),
  );
}

function pick(values: EngineProps, keys: readonly string[]): EngineProps {
  return Object.fromEntries(keys.filter((k) => k in values).map((k) => [k, values[k]]));
}
