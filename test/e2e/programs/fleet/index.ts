/**
 * A fleet: `count` machines (default 20), each with its own startup script and an access grant
 * for the account's first user. Used by the fault and load tests.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, MachineAccess, Script, getUsersOutput } from "pulumi-vmapi";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 20;
const owner = getUsersOutput({}).apply(({ users }) => users[0].id);

const machines = Array.from({ length: count }, (_, i) => {
  const script = new Script(`boot-${i}`, { scriptText: `#!/bin/bash\necho machine ${i}\n` });
  const machine = new Machine(`m-${i}`, {
    region: "East Coast (NY2)",
    machineType: "C4",
    size: 50,
    billingType: "hourly",
    templateId: "tubsrv01",
    scriptId: script.scriptId,
  });
  new MachineAccess(`grant-${i}`, { machineId: machine.machineId, userId: owner });
  return machine;
});

export const machineIds = pulumi.all(machines.map((m) => m.machineId));
