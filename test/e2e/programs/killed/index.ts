/**
 * One resource whose create a test interrupts by killing the provider process: a Machine or a
 * Script (`kind`: `machine` or `script`) called `resource` (default "box"), auto-named unless
 * `name` is set.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, Script } from "pulumi-vmapi";

const config = new pulumi.Config();
const name = config.get("name");
const resourceName = config.get("resource") ?? "box";

const resource =
  config.require("kind") === "machine"
    ? new Machine(resourceName, {
        region: "East Coast (NY2)",
        machineType: "C4",
        size: 50,
        billingType: "hourly",
        templateId: "tubsrv01",
        name,
      })
    : new Script(resourceName, { scriptText: "#!/bin/bash\necho setup\n", name });

export const id = resource.id;
export const machineOrScriptName = resource.name;
