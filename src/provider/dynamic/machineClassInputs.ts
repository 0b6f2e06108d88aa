/**
 * What the TypeScript class `Machine` (machine.ts, generated) does with the input it applies
 * itself, `restartTriggers`: a child `MachineRestart` that restarts the machine when the triggers
 * change (the plugin's programs declare that MachineRestart themselves).
 */
import * as pulumi from "@pulumi/pulumi";
import { MachineRestart, type MachineRestartArgs } from "./machineRestart";

/** The machine as the child needs it. */
interface RestartedMachine extends pulumi.Resource {
  readonly machineId: pulumi.Output<string>;
}

/** What the child takes of a Machine's arguments (`MachineArgs`, whose module imports this one). */
type MachineArgs = Pick<MachineRestartArgs, "account" | "state" | "waitTimeoutSeconds"> & {
  restartTriggers?: pulumi.Input<pulumi.Input<unknown>[]> | (() => pulumi.Input<pulumi.Input<unknown>[]>);
};

/** Makes the child that restarts `machine` when its `restartTriggers` change, when it has any. */
export function machineClassInputs(
  machine: RestartedMachine,
  name: string,
  args: MachineArgs,
  opts: pulumi.CustomResourceOptions | undefined,
): void {
  const { restartTriggers } = args;
  if (typeof restartTriggers === "function") {
    // Called after the program's synchronous declarations: the triggers may name resources
    // declared after this machine (the Script attached to it).
    queueMicrotask(() => restartOf(machine, name, args, triggersOf(name, restartTriggers), opts));
  } else if (restartTriggers !== undefined) restartOf(machine, name, args, restartTriggers, opts);
}

/**
 * The child that restarts `machine` when `triggers` change: it depends on the machine and on
 * whatever the triggers come from (a Script attached to this machine), so it runs after both.
 */
function restartOf(
  machine: RestartedMachine,
  name: string,
  args: MachineArgs,
  triggers: pulumi.Input<pulumi.Input<unknown>[]>,
  opts: pulumi.CustomResourceOptions | undefined,
): MachineRestart {
  const ignored = opts?.ignoreChanges?.includes("restartTriggers") ? ["triggers"] : undefined;
  return new MachineRestart(
    `${name}-restart`,
    {
      account: args.account,
      machineId: machine.machineId,
      triggers,
      state: args.state,
      waitTimeoutSeconds: args.waitTimeoutSeconds,
    },
    { parent: machine, customTimeouts: opts?.customTimeouts, ignoreChanges: ignored },
  );
}

/** The triggers a function gives; what it throws fails the program naming the machine. */
function triggersOf(
  name: string,
  triggers: () => pulumi.Input<pulumi.Input<unknown>[]>,
): pulumi.Input<pulumi.Input<unknown>[]> {
  try {
    return triggers();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new pulumi.RunError(`Machine ${name}: restartTriggers: the function failed: ${why}`);
  }
}
