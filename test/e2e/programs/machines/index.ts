/**
 * `count` auto-named machines (default 5) and nothing else: the shape of the interrupted-`up` test.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine } from "pulumi-vmapi";

const count = new pulumi.Config().getNumber("count") ?? 5;

const machines = Array.from(
  { length: count },
  (_, i) =>
    new Machine(`worker-${i}`, {
      region: "East Coast (NY2)",
      machineType: "C4",
      size: 50,
      billingType: "hourly",
      templateId: "tubsrv01",
    }),
);

export const machineIds = pulumi.all(machines.map((m) => m.machineId));
