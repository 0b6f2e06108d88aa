/**
 * A machine and its startup script, attached the way config `pattern` says:
 * - `machineId` (default; the README's pattern): the Script is created for the machine, so an
 *   edited text is a new script assigned to the same machine;
 * - `scriptId`: the Machine names the Script's id, fixed at create.
 * Config: `pattern`, `text` (the script's text).
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
  machine = new Machine("box", basics);
  script = new Script("boot", { scriptText: text, machineId: machine.machineId });
}

export const machineId = machine.machineId;
export const scriptId = script.scriptId;
export const scriptName = script.name;
