/**
 * List data sources: users, networks, templates, machines and scripts visible to the key,
 * with the equality filters of the list endpoints. Each takes its `...Args` (every filter typed
 * as the field it filters) and {@link VmApiInvokeOptions}, and returns its `...Result`; each
 * `...Output` twin takes `...OutputArgs` and {@link VmApiInvokeOutputOptions}.
 */
import type * as pulumi from "@pulumi/pulumi";
import type {
  MachineFilters,
  NetworkFilters,
  ScriptFilters,
  TemplateFilters,
  UserFilters,
} from "../../contract/listFilters";
import type { Machine, Network, Script, Template, User } from "../../contract/schemas";
import { DATA_SOURCES } from "./dataSources";
import {
  dataSource,
  outputTwin,
  programClient,
  type OutputArgs,
  type VmApiInvokeOptions,
  type VmApiInvokeOutputOptions,
} from "./programClient";

/** Arguments of {@link getUsers}: equality filters on any user field. */
export type GetUsersArgs = UserFilters;
/** {@link GetUsersArgs}, each may be an Output. */
export type GetUsersOutputArgs = OutputArgs<GetUsersArgs>;
/** What {@link getUsers} returns. */
export interface GetUsersResult {
  /** The users of the key's account (a team key: the team's users). */
  users: User[];
}

/** Users of the account or team, filtered by any user field. */
export async function getUsers(args: GetUsersArgs = {}, opts?: VmApiInvokeOptions): Promise<GetUsersResult> {
  return dataSource("getUsers", () => DATA_SOURCES.getUsers(programClient(opts), args));
}
/** {@link getUsers} over Outputs. */
export function getUsersOutput(
  args?: GetUsersOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetUsersResult> {
  return outputTwin(getUsers, args, opts);
}

/** Arguments of {@link getNetworks}: equality filters on any network field (e.g. `region`). */
export type GetNetworksArgs = NetworkFilters;
/** {@link GetNetworksArgs}, each may be an Output. */
export type GetNetworksOutputArgs = OutputArgs<GetNetworksArgs>;
/** What {@link getNetworks} returns. */
export interface GetNetworksResult {
  /** The networks of the account or team: one per region at least. */
  networks: Network[];
}

/** Networks of the account or team (one per region at least). */
export async function getNetworks(
  args: GetNetworksArgs = {},
  opts?: VmApiInvokeOptions,
): Promise<GetNetworksResult> {
  return dataSource("getNetworks", () => DATA_SOURCES.getNetworks(programClient(opts), args));
}
/** {@link getNetworks} over Outputs. */
export function getNetworksOutput(
  args?: GetNetworksOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetNetworksResult> {
  return outputTwin(getNetworks, args, opts);
}

/** Arguments of {@link getTemplates}: equality filters on any template field (e.g. `os`, `label`). */
export type GetTemplatesArgs = TemplateFilters;
/** {@link GetTemplatesArgs}, each may be an Output. */
export type GetTemplatesOutputArgs = OutputArgs<GetTemplatesArgs>;
/** What {@link getTemplates} returns. */
export interface GetTemplatesResult {
  /** Public templates and the team's own. */
  templates: Template[];
}

/** Templates (public ones and the team's), filtered e.g. by `os` or `label`. */
export async function getTemplates(
  args: GetTemplatesArgs = {},
  opts?: VmApiInvokeOptions,
): Promise<GetTemplatesResult> {
  return dataSource("getTemplates", () => DATA_SOURCES.getTemplates(programClient(opts), args));
}
/** {@link getTemplates} over Outputs. */
export function getTemplatesOutput(
  args?: GetTemplatesOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetTemplatesResult> {
  return outputTwin(getTemplates, args, opts);
}

/** Arguments of {@link getMachines}: equality filters on machine fields, and a cap. */
export type GetMachinesArgs = MachineFilters & {
  /**
   * At most this many machines (default 10,000); the pages beyond are not fetched.
   * @defaultValue 10000
   */
  maxItems?: number;
};
/** {@link GetMachinesArgs}, each may be an Output. */
export type GetMachinesOutputArgs = OutputArgs<GetMachinesArgs>;
/** What {@link getMachines} returns. */
export interface GetMachinesResult {
  /** The machines the key can see that match, across all pages. */
  machines: Machine[];
}

/** Every machine matching the filters, all pages (at most `maxItems`, default 10,000). */
export async function getMachines(
  args: GetMachinesArgs = {},
  opts?: VmApiInvokeOptions,
): Promise<GetMachinesResult> {
  return dataSource("getMachines", () => DATA_SOURCES.getMachines(programClient(opts), args));
}
/** {@link getMachines} over Outputs. */
export function getMachinesOutput(
  args?: GetMachinesOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetMachinesResult> {
  return outputTwin(getMachines, args, opts);
}

/** Arguments of {@link getScripts}: equality filters on any script field but its machines. */
export type GetScriptsArgs = ScriptFilters;
/** {@link GetScriptsArgs}, each may be an Output. */
export type GetScriptsOutputArgs = OutputArgs<GetScriptsArgs>;
/** What {@link getScripts} returns. */
export interface GetScriptsResult {
  /** The scripts of the user or team (without their text: see {@link getScriptText}). */
  scripts: Script[];
}

/** Scripts of the user or team, filtered by any script field. */
export async function getScripts(
  args: GetScriptsArgs = {},
  opts?: VmApiInvokeOptions,
): Promise<GetScriptsResult> {
  return dataSource("getScripts", () => DATA_SOURCES.getScripts(programClient(opts), args));
}
/** {@link getScripts} over Outputs. */
export function getScriptsOutput(
  args?: GetScriptsOutputArgs,
  opts?: VmApiInvokeOutputOptions,
): pulumi.Output<GetScriptsResult> {
  return outputTwin(getScripts, args, opts);
}
