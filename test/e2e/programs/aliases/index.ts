/**
 * An auto-named Script used by a Machine through `scriptId`, and an auto-named Machine on its
 * own. Config `renamed: true` renames both in the program ("boot" → "startup", "old-m" → "new-m")
 * with an alias to the old name, as a refactoring does.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, Script } from "pulumi-vmapi";

const config = new pulumi.Config();
const renamed = config.getBoolean("renamed") ?? false;

const machineArgs = {
  region: "East Coast (NY2)" as const,
  machineType: "C4" as const,
  size: 50,
  billingType: "hourly" as const,
  templateId: "tubsrv01",
};

const script = renamed
  ? new Script("startup", { scriptText: "#!/bin/bash\necho boot\n" }, { aliases: [{ name: "boot" }] })
  : new Script("boot", { scriptText: "#!/bin/bash\necho boot\n" });
const web = new Machine("web", { ...machineArgs, scriptId: script.scriptId });
const solo = renamed
  ? new Machine("new-m", machineArgs, { aliases: [{ name: "old-m" }] })
  : new Machine("old-m", machineArgs);

export const scriptName = script.name;
export const webName = web.name;
export const soloName = solo.name;
