/**
 * Quickstart: one machine kept `ready`, and a startup script created for it (edit the text freely:
 * the machine stays). `npm run demo` runs it (it is the
 * repository's root project); by hand, in this folder:
 *
 *   npm run pulumi -- stack init dev
 *   npm run pulumi -- config set vmapi:baseUrl http://127.0.0.1:<port>   # npm run emulator:start
 *   npm run pulumi -- config set --secret vmapi:apiKey dev-individual-key
 *   npm run pulumi -- config set vmapi:pollScale 0.05    # the background emulator's time scale
 *   npm run pulumi -- up --yes
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, Script, getTemplatesOutput } from "pulumi-vmapi";

const ubuntu = getTemplatesOutput({ os: "Ubuntu 22.04 Server" }).apply(({ templates }) => {
  if (templates.length === 0) throw new Error("no Ubuntu 22.04 Server template is visible to this key");
  return templates[0].id;
});

const trainer = new Machine("trainer", {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: ubuntu,
  dynamicPublicIp: true,
  shutdownTimeoutInHours: 2,
});

// The script is created for the machine (`machineId`), not named by it (`scriptId`): scripts are
// immutable, so an edited text is a new script, which is assigned to the same machine; the machine
// keeps its id and its disk and runs the new text at its next boot. To run it at once, give the
// Machine `restartTriggers: () => [setup.scriptId]` (a restart whenever the script changes, as the
// README's example does). (A Machine's `scriptId` is fixed at create: changing it replaces the
// machine.)
const setup = new Script("setup", {
  // A secret: encrypted in the stack's state, never shown in plain text.
  scriptText: pulumi.secret("#!/bin/bash\napt-get update && apt-get install -y python3-pip\n"),
  description: "installs pip at the machine's next boot",
  runOnce: true,
  machineId: trainer.machineId,
});

export const machineId = trainer.machineId;
export const machineState = trainer.currentState;
export const publicIp = trainer.publicIpAddress;
export const scriptId = setup.scriptId;
export const machineName = trainer.name;
export const scriptName = setup.name;
