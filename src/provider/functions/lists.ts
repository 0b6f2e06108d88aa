/**
 * List data sources: users, networks, templates, machines and scripts visible to the key,
 * with the equality filters of the list endpoints. Each takes its `...Args` (every filter typed
 * as the field it filters) and {@link VmApiInvokeOptions}, and returns its `...Result`; each
 * `...Output` twin takes `...OutputArgs` and {@link VmApiInvokeOutputOptions}.
 */
import type * as pulumi from "@pulumi/pulumi";
import { DATA_SOURCES } from "./dataSources";
import type {
  GetUsersArgs,
  GetUsersResult,
  GetNetworksArgs,
  GetNetworksResult,
  GetTemplatesArgs,
  GetTemplatesResult,
  GetMachinesArgs,
  GetMachinesResult,
  GetScriptsArgs,
  GetScriptsResult,
} from "./dataSources";

export type {
  GetUsersArgs,
  GetUsersResult,
  GetNetworksArgs,
  GetNetworksResult,
  GetTemplatesArgs,
  GetTemplatesResult,
  GetMachinesArgs,
  GetMachinesResult,
  GetScriptsArgs,
  GetScriptsResult,
} from "./dataSources";

import {
  dataSource,
  outputTwin,
  programCall,
  type OutputArgs,
  type VmApiInvokeOptions,
  type VmApiInvokeOutputOptions,
} from "./programClient";

/** {@link GetUsersArgs}, each may be an Output. */
export type GetUsersOutputArgs = OutputArgs<GetUsersArgs>;

/** Users of the account or team, filtered by any user field. */
export async function getUsers(args: GetUsersArgs = {}, opts?: VmApiInvokeOptions): Promise<GetUsersResult> {
  return dataSource("getUsers", () => DATA_SOURCES.getUsers(programCall(opts), args));
}
/** {@link getUsers} over Outputs. */
export function getUsersOutput(
  args?: GetUsersOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetUsersResult> {
  return outputTwin(getUsers, args, opts);
}

/** {@link GetNetworksArgs}, each may be an Output. */
export type GetNetworksOutputArgs = OutputArgs<GetNetworksArgs>;

/** Networks of the account or team (one per region at least). */
export async function getNetworks(
  args: GetNetworksArgs = {},
  opts?: VmApiInvokeOptions,
): Promise<GetNetworksResult> {
  return dataSource("getNetworks", () => DATA_SOURCES.getNetworks(programCall(opts), args));
}
/** {@link getNetworks} over Outputs. */
export function getNetworksOutput(
  args?: GetNetworksOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetNetworksResult> {
  return outputTwin(getNetworks, args, opts);
}

/** {@link GetTemplatesArgs}, each may be an Output. */
export type GetTemplatesOutputArgs = OutputArgs<GetTemplatesArgs>;

/** Templates (public ones and the team's), filtered e.g. by `os` or `label`. */
export async function getTemplates(
  args: GetTemplatesArgs = {},
  opts?: VmApiInvokeOptions,
): Promise<GetTemplatesResult> {
  return dataSource("getTemplates", () => DATA_SOURCES.getTemplates(programCall(opts), args));
}
/** {@link getTemplates} over Outputs. */
export function getTemplatesOutput(
  args?: GetTemplatesOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetTemplatesResult> {
  return outputTwin(getTemplates, args, opts);
}

/** {@link GetMachinesArgs}, each may be an Output. */
export type GetMachinesOutputArgs = OutputArgs<GetMachinesArgs>;

/** Every machine matching the filters, all pages (at most `maxItems`, default 10,000). */
export async function getMachines(
  args: GetMachinesArgs = {},
  opts?: VmApiInvokeOptions,
): Promise<GetMachinesResult> {
  return dataSource("getMachines", () => DATA_SOURCES.getMachines(programCall(opts), args));
}
/** {@link getMachines} over Outputs. */
export function getMachinesOutput(
  args?: GetMachinesOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetMachinesResult> {
  return outputTwin(getMachines, args, opts);
}

/** {@link GetScriptsArgs}, each may be an Output. */
export type GetScriptsOutputArgs = OutputArgs<GetScriptsArgs>;

/** Scripts of the user or team, filtered by any script field. */
export async function getScripts(
  args: GetScriptsArgs = {},
  opts?: VmApiInvokeOptions,
): Promise<GetScriptsResult> {
  return dataSource("getScripts", () => DATA_SOURCES.getScripts(programCall(opts), args));
}
/** {@link getScripts} over Outputs. */
export function getScriptsOutput(
  args?: GetScriptsOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetScriptsResult> {
  return outputTwin(getScripts, args, opts);
}
