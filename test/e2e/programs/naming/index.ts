/**
 * An auto-named and a named Script, and an auto-named Machine that runs the auto-named script and
 * a named Machine. Config: `text` (the scripts' text: a change replaces both scripts, and so the
 * machine that runs one), `size` (the machines' disk: a change replaces both machines).
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, Script } from "pulumi-vmapi";

const config = new pulumi.Config();
const text = config.get("text") ?? "#!/bin/bash\necho one\n";
const stack = pulumi.getStack();

const autoScript = new Script("auto-s", { scriptText: text });
const namedScript = new Script("named-s", { name: `named-script-${stack}`, scriptText: text });
const machineArgs = {
  region: "East Coast (NY2)" as const,
  machineType: "C4" as const,
  size: config.getNumber("size") ?? 50,
  billingType: "hourly" as const,
  templateId: "tubsrv01",
};
const autoMachine = new Machine("auto-m", { ...machineArgs, scriptId: autoScript.scriptId });
const namedMachine = new Machine("named-m", { ...machineArgs, name: `named-machine-${stack}` });

export const names = {
  autoScript: autoScript.name,
  namedScript: namedScript.name,
  autoMachine: autoMachine.name,
  namedMachine: namedMachine.name,
};
