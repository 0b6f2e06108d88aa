/**
 * One machine whose resource options come from the stack config, so a test changes them between
 * runs: `customTimeouts`, `replaceOnChanges`, `ignoreChanges` (JSON), `protect`, `retainOnDelete`,
 * `deleteBeforeReplace` (booleans); inputs `name`, `state`, `size`, `shutdownTimeoutInHours`. With
 * `restartTrigger` set, a MachineRestart of the machine declared by the program itself, whose
 * trigger it is, with `restartReplaceOnChanges` (JSON) as its `replaceOnChanges`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, MachineRestart } from "pulumi-vmapi";

const config = new pulumi.Config();
const json = <T>(key: string): T | undefined => {
  const text = config.get(key);
  return text === undefined ? undefined : (JSON.parse(text) as T);
};

const box = new Machine(
  "box",
  {
    region: "East Coast (NY2)",
    machineType: "C4",
    size: config.getNumber("size") ?? 50,
    billingType: "hourly",
    templateId: "tubsrv01",
    name: config.get("name"),
    state: config.get("state") as "ready" | "off" | undefined,
    shutdownTimeoutInHours: config.getNumber("shutdownTimeoutInHours"),
  },
  {
    customTimeouts: json<pulumi.CustomTimeouts>("customTimeouts"),
    replaceOnChanges: json<string[]>("replaceOnChanges"),
    ignoreChanges: json<string[]>("ignoreChanges"),
    protect: config.getBoolean("protect"),
    retainOnDelete: config.getBoolean("retainOnDelete"),
    deleteBeforeReplace: config.getBoolean("deleteBeforeReplace"),
  },
);

export const machineId = box.machineId;
export const name = box.name;

const trigger = config.get("restartTrigger");
if (trigger !== undefined)
  new MachineRestart(
    "box-restart",
    { machineId: box.machineId, triggers: [trigger] },
    { replaceOnChanges: json<string[]>("restartReplaceOnChanges") },
  );
