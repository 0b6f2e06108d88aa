/**
 * The MachineRestart implementation: a change of `triggers` restarts the machine in place (one
 * restart request) and waits until it is back in `ready`, with the Machine's progress lines. It
 * exists apart from the Machine because what usually triggers a restart, a Script attached to the
 * machine (`machineId: machine.machineId`), depends on the machine: as an input of the Machine
 * itself it would make the two wait for each other. As its own resource it comes after both, so
 * the machine restarts once the new script is attached, and runs it at that boot.
 *
 * Its create and delete call nothing: a machine being created boots anyway, and one whose
 * triggers are first declared is left running. A replaced machine (a new `machineId`) replaces
 * this resource too, so it is not restarted either.
 */
import type * as pulumi from "@pulumi/pulumi";
import { provesAbsence } from "../../client/core/errors";
import { nowOf } from "../account/context";
import { explainTimeout } from "../shared/operationOptions";
import { ResourceInitError } from "../shared/partialFailure";
import type { Call, ResourceImplementation } from "../shared/resourceImplementation";
import { UNKNOWN } from "../shared/unknown";
import { deadlineOf, settleOptions } from "../machine/converge";
import { isPowerState, type MachineInputs } from "../machine/machineModel";
import { settleMachine } from "../machine/settle";
import {
  RESTART_INPUT_KEYS,
  RestartSettingsSchema,
  type RestartInputs,
  type RestartOutputs,
} from "./machineRestartModel";

/** The MachineRestart implementation's own type. */
export type MachineRestartImplementation = ResourceImplementation<RestartInputs, RestartOutputs>;

/** The MachineRestart implementation both doors dispatch to. */
export const machineRestartProvider: MachineRestartImplementation = {
  async check(_olds, news) {
    const inputs: RestartInputs = { ...news, state: (news.state as RestartInputs["state"]) ?? "ready" };
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const known = (key: string) => inputs[key] !== UNKNOWN && inputs[key] !== undefined;
    if (inputs.machineId !== UNKNOWN && (typeof inputs.machineId !== "string" || inputs.machineId === ""))
      failures.push({ property: "machineId", reason: "machineId is required: the machine to restart" });
    if ((inputs.triggers as unknown) !== UNKNOWN && !Array.isArray(inputs.triggers))
      failures.push({
        property: "triggers",
        reason: "triggers must be a list of values, e.g. [setup.scriptId]",
      });
    if (known("state") && !isPowerState(inputs.state))
      failures.push({
        property: "state",
        reason: `state must be "ready" or "off" (got ${JSON.stringify(inputs.state)})`,
      });
    const wait = inputs.waitTimeoutSeconds;
    if (
      known("waitTimeoutSeconds") &&
      !RestartSettingsSchema.shape.waitTimeoutSeconds.safeParse(wait).success
    )
      failures.push({
        property: "waitTimeoutSeconds",
        reason: `waitTimeoutSeconds must be a positive whole number of seconds (got ${JSON.stringify(wait)})`,
      });
    return { inputs, failures };
  },

  async diff(_id, olds, news) {
    // A new machine boots anyway: replaced with it, never restarted.
    if (olds.machineId !== news.machineId) return { changes: true, replaces: ["machineId"] };
    const changed = RESTART_INPUT_KEYS.filter(
      (key) => key !== "machineId" && JSON.stringify(olds[key] ?? null) !== JSON.stringify(news[key] ?? null),
    );
    // A restart that did not come back in time: the next `up` waits for it again.
    const unsettled = olds.currentState !== undefined && olds.currentState !== olds.state;
    return { changes: changed.length > 0 || unsettled, replaces: [] };
  },

  async create(inputs) {
    return { id: `${String(inputs.machineId)}/restart`, outs: { ...inputs } };
  },

  async read(id, props, call) {
    try {
      await call.account.client.machines.get(String(props.machineId));
    } catch (err) {
      if (provesAbsence(err)) return {};
      throw err;
    }
    const inputs = Object.fromEntries(
      RESTART_INPUT_KEYS.filter((k) => props[k] !== undefined).map((k) => [k, props[k]]),
    );
    return { id, props, inputs };
  },

  async update(id, olds, news, call) {
    const triggered = JSON.stringify(olds.triggers ?? null) !== JSON.stringify(news.triggers ?? null);
    const unsettled = olds.currentState !== undefined && olds.currentState !== olds.state;
    if (!triggered && !unsettled) return { outs: { ...olds, ...news } };
    const machineId = String(news.machineId);
    if (news.state === "off") {
      call.progress(
        `machine ${machineId}: its restartTriggers changed, but it is declared off: not started, nothing restarted ` +
          `(it runs its startup script when it next starts)`,
      );
      // Its last restart's outcome no longer holds; the plugin cannot encode undefined.
      const { currentState: _dropped, ...rest } = { ...olds, ...news };
      return { outs: rest };
    }
    return restart(machineId, olds, news, triggered, call);
  },

  async delete() {
    // Nothing to undo: a restart is an action, not a thing that exists.
  },
};

/**
 * Restarts the machine (only when `triggered`: a restart that did not come back in time is
 * waited for again, never sent again) and waits until it is ready, within the update's bound.
 */
async function restart(
  machineId: string,
  olds: RestartOutputs,
  news: RestartInputs,
  triggered: boolean,
  call: Call,
): Promise<{ outs: RestartOutputs }> {
  const client = call.account.client;
  const context = call.account.context;
  const asMachine = news as unknown as MachineInputs;
  const deadline = deadlineOf(asMachine, call);
  let machine = await client.machines.get(machineId);
  const label = machine.name;
  try {
    if (triggered) {
      call.progress(
        `machine ${label} (${machineId}): restarting, its restartTriggers changed (${changedTriggers(olds, news)})`,
      );
      await client.machines.restart(machineId);
      machine = { ...machine, state: "restarting" };
    } else {
      call.progress(`machine ${label} (${machineId}): waiting for the restart of an earlier up to finish`);
    }
    const options = settleOptions({ ...asMachine, name: label }, call, machine, deadline.at - nowOf(context));
    machine = await settleMachine(client, machineId, "ready", options);
  } catch (err) {
    const seen = await client.machines.get(machineId).catch(() => machine);
    throw new ResourceInitError(
      machineId,
      { ...news, currentState: seen.state },
      explainTimeout(err, deadline.bound),
    );
  }
  const event = (machine.events ?? []).find((e) => e.name === "restart");
  const restartedAt = event?.dtCreated ?? new Date(nowOf(context)).toISOString();
  return { outs: { ...news, currentState: machine.state, restartedAt } };
}

/** Which triggers changed, by position ("1 of 2"), never their values (they may be secrets). */
function changedTriggers(olds: RestartOutputs, news: RestartInputs): string {
  const before = Array.isArray(olds.triggers) ? olds.triggers : [];
  const after = Array.isArray(news.triggers) ? news.triggers : [];
  const positions: number[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++)
    if (JSON.stringify(before[i] ?? null) !== JSON.stringify(after[i] ?? null)) positions.push(i);
  if (before.length === 0 && olds.triggers === undefined) return "declared now";
  return `trigger ${positions.join(", ")} of ${after.length}`;
}
