/**
 * Per-machine and per-type data sources: availability of a GPU type in a region, a machine's
 * utilization in a billing month, and a script's text (a secret in the Output twin).
 */
import * as pulumi from "@pulumi/pulumi";
import type { DedicatedGpuMachineType, Region } from "../../client/constants";
import type { Utilization } from "../../client/schemas";
import { dataSource, outputTwin, programClient, type DataSourceOptions } from "./programClient";

export interface GetAvailabilityArgs {
  region: Region;
  /** GPU+, P4000, P5000, P6000 or V100: the only types that report availability. */
  machineType: DedicatedGpuMachineType;
}

/** Whether machines of this type can be requested in this region now. */
export async function getAvailability(
  args: GetAvailabilityArgs,
  options?: DataSourceOptions,
): Promise<{ available: boolean }> {
  return dataSource("getAvailability", () =>
    programClient(options).machines.availability(args.region, args.machineType),
  );
}
export const getAvailabilityOutput = outputTwin(getAvailability);

export interface GetUtilizationArgs {
  machineId: string;
  /** YYYY-MM. */
  billingMonth: string;
}

/** Seconds used and rates of a machine in a billing month. */
export async function getUtilization(
  args: GetUtilizationArgs,
  options?: DataSourceOptions,
): Promise<Utilization> {
  return dataSource("getUtilization", () =>
    programClient(options).machines.utilization(args.machineId, args.billingMonth),
  );
}
export const getUtilizationOutput = outputTwin(getUtilization);

/** The text of a script (never part of the script record). */
export async function getScriptText(
  args: { scriptId: string },
  options?: DataSourceOptions,
): Promise<{ text: string }> {
  return dataSource("getScriptText", async () => ({
    text: await programClient(options).scripts.text(args.scriptId),
  }));
}

/** The `...Output` twin of getScriptText; the text is a secret. */
export function getScriptTextOutput(
  args: pulumi.Input<{ scriptId: pulumi.Input<string> }>,
  options?: DataSourceOptions,
): pulumi.Output<{ text: string }> {
  return pulumi.secret(outputTwin(getScriptText)(args as never, options));
}
