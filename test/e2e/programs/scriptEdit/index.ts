/**
 * A machine and its startup script, attached the way config `pattern` says:
 * - `machineId` (default; the README's pattern): the Script is created for the machine, so an
 *   edited text is a new script assigned to the same machine;
 * - `scriptId`: the Machine names the Script's id, fixed at create.
 * With `restart` true, the machine restarts when the script's id changes (`restartTriggers`), so
 * an edited script runs at once. Config: `pattern`, `text` (the script's text), `restart`, `state`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, Script } from "pulumi-vmapi";

const config = new pulumi.Config();
const text = config.get("text") ?? "#!/bin/bash\necho first\n";
const basics = {
  region: "East Coast (NY2)" as const,
  machineType: "C4" as const,
  size: 50,
  billingType: "hourly" as const,
  templateId: "tubsrv01",
};

let machine: Machine;
let script: Script;
if (config.get("pattern") === "scriptId") {
  script = new Script("boot", { scriptText: text });
  machine = new Machine("box", { ...basics, scriptId: script.scriptId });
} else {
  const state = config.get("state") as "ready" | "off" | undefined;
  const restartTriggers = config.getBoolean("restart") ? () => [script.scriptId] : undefined;
  machine = new Machine("box", { ...basics, state, restartTriggers });
  script = new Script("boot", { scriptText: text, machineId: machine.machineId });
}

export const machineId = machine.machineId;
export const scriptId = script.scriptId;
export const scriptName = script.name;
