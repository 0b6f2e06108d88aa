/**
 * Per-machine and per-type data sources: availability of a GPU type in a region, a machine's
 * utilization in a billing month, and a script's text (a secret in the Output twin).
 */
import * as pulumi from "@pulumi/pulumi";
import { DATA_SOURCES } from "./dataSources";
import type {
  GetAvailabilityArgs,
  GetAvailabilityResult,
  GetUtilizationArgs,
  GetUtilizationResult,
  GetScriptTextArgs,
  GetScriptTextResult,
} from "./dataSources";

export type {
  GetAvailabilityArgs,
  GetAvailabilityResult,
  GetUtilizationArgs,
  GetUtilizationResult,
  GetScriptTextArgs,
  GetScriptTextResult,
} from "./dataSources";

import {
  dataSource,
  outputTwin,
  programCall,
  type OutputArgs,
  type VmApiInvokeOptions,
  type VmApiInvokeOutputOptions,
} from "./programClient";

/** {@link GetAvailabilityArgs}, each may be an Output. */
export type GetAvailabilityOutputArgs = OutputArgs<GetAvailabilityArgs>;

/** Whether machines of this type can be requested in this region now. */
export async function getAvailability(
  args: GetAvailabilityArgs,
  opts?: VmApiInvokeOptions,
): Promise<GetAvailabilityResult> {
  return dataSource("getAvailability", () => DATA_SOURCES.getAvailability(programCall(opts), args));
}
/** {@link getAvailability} over Outputs. */
export function getAvailabilityOutput(
  args: GetAvailabilityOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetAvailabilityResult> {
  return outputTwin(getAvailability, args, opts);
}

/** {@link GetUtilizationArgs}, each may be an Output. */
export type GetUtilizationOutputArgs = OutputArgs<GetUtilizationArgs>;

/** Seconds used and rates of a machine in a billing month. */
export async function getUtilization(
  args: GetUtilizationArgs,
  opts?: VmApiInvokeOptions,
): Promise<GetUtilizationResult> {
  return dataSource("getUtilization", () => DATA_SOURCES.getUtilization(programCall(opts), args));
}
/** {@link getUtilization} over Outputs. */
export function getUtilizationOutput(
  args: GetUtilizationOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetUtilizationResult> {
  return outputTwin(getUtilization, args, opts);
}

/** {@link GetScriptTextArgs}, each may be an Output. */
export type GetScriptTextOutputArgs = OutputArgs<GetScriptTextArgs>;

/** The text of a script (never part of the script record). */
export async function getScriptText(
  args: GetScriptTextArgs,
  opts?: VmApiInvokeOptions,
): Promise<GetScriptTextResult> {
  return dataSource("getScriptText", () => DATA_SOURCES.getScriptText(programCall(opts), args));
}

/** {@link getScriptText} over Outputs; the text is a secret. */
export function getScriptTextOutput(
  args: GetScriptTextOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetScriptTextResult> {
  return pulumi.secret(outputTwin(getScriptText, args, opts));
}
