/**
 * Convergence of a Machine: after a create or for an update, the in-place settings that differ
 * are applied and the machine is brought to its declared power state (settle.ts), all within one
 * deadline: the tightest of the operation's `customTimeouts` entry and `waitTimeoutSeconds`.
 */
import type { VmApiClient } from "../../client/client";
import type { UpdateMachineRequest } from "../../contract/requestSchemas";
import type { Machine as ApiMachine } from "../../contract/schemas";
import { nowOf } from "../account/context";
import type { Call } from "../shared/resourceImplementation";
import { tightest, type Bound } from "../shared/operationOptions";
import {
  updateBody,
  updateKeysAgainst,
  type MachineInputs,
  type MachineOutputs,
  type PowerState,
} from "./machineModel";
import { machineWatcherFor } from "./machineWatcher";
import { settleMachine, type SettleOptions } from "./settle";

export const DEFAULT_WAIT_SECONDS = 1200;

/**
 * When the waits of one operation must end: the tightest of its `customTimeouts` entry and
 * `waitTimeoutSeconds` (default 1200 s), counted from the operation's start. The create or
 * update request itself is never cut short: a machine the API made must reach the stack.
 */
export interface Deadline {
  bound: Bound;
  at: number;
}

/** The deadline of the call's operation (its own bound, `call.timeout`, and `waitTimeoutSeconds`), started now. */
export function deadlineOf(inputs: MachineInputs, call: Call): Deadline {
  const bound = tightest(call.timeout, waitBound(inputs));
  return { bound, at: nowOf(call.account.context) + bound.ms };
}

/** `waitTimeoutSeconds` as a bound, or its default. */
export function waitBound(inputs: MachineInputs | MachineOutputs): Bound {
  // Read as stored: a value that is not a number (never checked, in old state) means the default.
  const declared = typeof inputs.waitTimeoutSeconds === "number";
  const seconds = declared ? (inputs.waitTimeoutSeconds as number) : DEFAULT_WAIT_SECONDS;
  const label = declared
    ? `waitTimeoutSeconds (${seconds})`
    : `the default wait (waitTimeoutSeconds ${seconds})`;
  return { ms: seconds * 1000, label };
}

/** What one convergence brings the machine to, and from where. */
export interface ConvergeGoal {
  target: PowerState;
  /** Where a machine still provisioning ends (create only). */
  provisionsTo?: PowerState;
  /** Inputs the diff found changed. */
  changed: readonly string[];
  /** The machine as just read. */
  current: ApiMachine;
  call: Call;
  deadline: Deadline;
  /**
   * A create's declared name, given to the machine as the last step, once it has settled: until
   * then it has its creating name (leftovers.ts), which tells an unfinished create apart.
   */
  commitName?: string;
}

/** Applies in-place fields that differ, then brings the machine to its power state. */
export async function converge(
  client: VmApiClient,
  id: string,
  inputs: MachineInputs,
  goal: ConvergeGoal,
): Promise<ApiMachine> {
  const keys = [...new Set([...goal.changed, ...updateKeysAgainst(inputs, goal.current)])].filter(
    (key) => goal.commitName === undefined || key !== "name",
  );
  const current = await applyUpdate(client, id, goal.current, updateBody(inputs, keys));
  const remainingMs = goal.deadline.at - nowOf(goal.call.account.context);
  const settled = await settleMachine(client, id, goal.target, {
    ...settleOptions(inputs, goal.call, current, remainingMs),
    provisionsTo: goal.provisionsTo,
  });
  return goal.commitName === undefined ? settled : commitName(client, id, settled, goal.commitName);
}

/** Gives a created machine its declared name (the last step of a create: converge's `commitName`). */
export function commitName(
  client: VmApiClient,
  id: string,
  machine: ApiMachine,
  name: string,
): Promise<ApiMachine> {
  return applyUpdate(client, id, machine, { machineName: name });
}

/** Sends `body` when it holds anything; the machine as it is after (the update answers nothing). */
async function applyUpdate(
  client: VmApiClient,
  id: string,
  machine: ApiMachine,
  body: UpdateMachineRequest,
): Promise<ApiMachine> {
  if (Object.keys(body).length === 0) return machine;
  await client.machines.update(id, body);
  // What the update changed is known, and the power state it leaves alone.
  const { machineName, ...fields } = body;
  return { ...machine, ...fields, ...(machineName ? { name: machineName } : {}) } as ApiMachine;
}

/** How the machine's waits run: bounded, with progress, on the account's shared watcher. */
export function settleOptions(
  inputs: MachineInputs,
  call: Call,
  current: ApiMachine,
  timeoutMs = waitBound(inputs).ms,
): SettleOptions {
  const { account } = call;
  return {
    timeoutMs: Math.max(timeoutMs, 1),
    label: shownName(call, inputs, current.name),
    progress: call.progress,
    pollScale: account.pollScale,
    now: () => nowOf(account.context),
    current,
    // Waits of one account share one watcher's listings instead of polling one by one.
    watcher: machineWatcherFor(account),
  };
}

/** The machine's name for progress lines, unless the program made it a secret. */
export function shownName(call: Call, inputs: MachineInputs | MachineOutputs, actual: string): string {
  return call.secretInputs.includes("name") ? "[secret]" : String(inputs.name ?? actual);
}
