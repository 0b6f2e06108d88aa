/**
 * What vmapi-review's real-engine tests preview: a machine `box` booting the script `setup`, and
 * with `adoptMachineId` a second machine `adopted` that manages an existing one. Every name is
 * explicit, so a preview names the same machines in every run. Config: `name`, `size`,
 * `machineType`, `billingType`, `state`, `assignPublicIp`, `releasePublicIpOnDestroy`,
 * `scriptText`, `withBox` (false: the program no longer declares `box`), `adoptMachineId`,
 * `adoptName`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, Script, type BillingType, type MachineType } from "pulumi-vmapi";

const config = new pulumi.Config();

const setup = new Script("setup", {
  name: "setup-script",
  scriptText: config.get("scriptText") ?? "#!/bin/bash\necho ready\n",
  runOnce: true,
});

if (config.getBoolean("withBox") ?? true) {
  new Machine("box", {
    name: config.get("name") ?? "box-1",
    region: "East Coast (NY2)",
    machineType: (config.get("machineType") ?? "C4") as MachineType,
    size: config.getNumber("size") ?? 50,
    billingType: (config.get("billingType") ?? "hourly") as BillingType,
    templateId: "tubsrv01",
    state: config.get("state") as "ready" | "off" | undefined,
    scriptId: setup.scriptId,
    assignPublicIp: config.getBoolean("assignPublicIp"),
    releasePublicIpOnDestroy: config.getBoolean("releasePublicIpOnDestroy"),
  });
}

const adoptMachineId = config.get("adoptMachineId");
if (adoptMachineId) {
  new Machine("adopted", {
    adoptMachineId,
    name: config.require("adoptName"),
    region: "East Coast (NY2)",
    machineType: "C2",
    size: 50,
    billingType: "monthly",
    templateId: "tubsrv01",
  });
}
