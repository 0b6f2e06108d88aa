/**
 * `count` auto-named machines (default 5) and nothing else: the shape of the interrupted-`up` test.
 * `templateId` (default tubsrv01, a server template) is set by the benchmark of `pulumi up`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine } from "pulumi-vmapi";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 5;
const templateId = config.get("templateId") ?? "tubsrv01";

const machines = Array.from(
  { length: count },
  (_, i) =>
    new Machine(`worker-${i}`, {
      region: "East Coast (NY2)",
      machineType: "C4",
      size: 50,
      billingType: "hourly",
      templateId,
    }),
);

export const machineIds = pulumi.all(machines.map((m) => m.machineId));
