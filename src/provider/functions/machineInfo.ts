/**
 * Per-machine and per-type data sources: availability of a GPU type in a region, a machine's
 * utilization in a billing month, and a script's text (a secret in the Output twin).
 */
import * as pulumi from "@pulumi/pulumi";
import type { DedicatedGpuMachineType, Region } from "../../contract/constants";
import type { Utilization } from "../../contract/schemas";
import { DATA_SOURCES } from "./dataSources";
import {
  dataSource,
  outputTwin,
  programClient,
  type OutputArgs,
  type VmApiInvokeOptions,
  type VmApiInvokeOutputOptions,
} from "./programClient";

/** Arguments of {@link getAvailability}. */
export interface GetAvailabilityArgs {
  /** One of the API's regions, e.g. `"East Coast (NY2)"`. */
  region: Region;
  /** GPU+, P4000, P5000, P6000 or V100: the only types that report availability. */
  machineType: DedicatedGpuMachineType;
}
/** {@link GetAvailabilityArgs}, each may be an Output. */
export type GetAvailabilityOutputArgs = OutputArgs<GetAvailabilityArgs>;
/** What {@link getAvailability} returns. */
export interface GetAvailabilityResult {
  /** Whether a machine of this type can be requested in this region now. */
  available: boolean;
}

/** Whether machines of this type can be requested in this region now. */
export async function getAvailability(
  args: GetAvailabilityArgs,
  opts?: VmApiInvokeOptions,
): Promise<GetAvailabilityResult> {
  return dataSource("getAvailability", () => DATA_SOURCES.getAvailability(programClient(opts), args));
}
/** {@link getAvailability} over Outputs. */
export function getAvailabilityOutput(
  args: GetAvailabilityOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetAvailabilityResult> {
  return outputTwin(getAvailability, args, opts);
}

/** Arguments of {@link getUtilization}. */
export interface GetUtilizationArgs {
  /** The machine's id, e.g. `"psabc123"`. */
  machineId: string;
  /** The billing month, `YYYY-MM`. */
  billingMonth: string;
}
/** {@link GetUtilizationArgs}, each may be an Output. */
export type GetUtilizationOutputArgs = OutputArgs<GetUtilizationArgs>;
/** What {@link getUtilization} returns: seconds used and the rates, as the API reports them. */
export type GetUtilizationResult = Utilization;

/** Seconds used and rates of a machine in a billing month. */
export async function getUtilization(
  args: GetUtilizationArgs,
  opts?: VmApiInvokeOptions,
): Promise<GetUtilizationResult> {
  return dataSource("getUtilization", () => DATA_SOURCES.getUtilization(programClient(opts), args));
}
/** {@link getUtilization} over Outputs. */
export function getUtilizationOutput(
  args: GetUtilizationOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetUtilizationResult> {
  return outputTwin(getUtilization, args, opts);
}

/** Arguments of {@link getScriptText}. */
export interface GetScriptTextArgs {
  /** The script's id. */
  scriptId: string;
}
/** {@link GetScriptTextArgs}, each may be an Output. */
export type GetScriptTextOutputArgs = OutputArgs<GetScriptTextArgs>;
/** What {@link getScriptText} returns. */
export interface GetScriptTextResult {
  /** The script's text (never part of the script record). */
  text: string;
}

/** The text of a script (never part of the script record). */
export async function getScriptText(
  args: GetScriptTextArgs,
  opts?: VmApiInvokeOptions,
): Promise<GetScriptTextResult> {
  return dataSource("getScriptText", () => DATA_SOURCES.getScriptText(programClient(opts), args));
}

/** {@link getScriptText} over Outputs; the text is a secret. */
export function getScriptTextOutput(
  args: GetScriptTextOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetScriptTextResult> {
  return pulumi.secret(outputTwin(getScriptText, args, opts));
}
