/**
 * What each data source does, protocol-free: its request(s) on a client of the account. The
 * TypeScript door (lists.ts, machineInfo.ts) runs them from the program with the stack's settings;
 * the plugin runs them for an `Invoke` on its provider's account.
 */
import type { VmApiClient } from "../../client/client";
import type { Machine } from "../../contract/schemas";
import type {
  GetMachinesArgs,
  GetMachinesResult,
  GetNetworksArgs,
  GetNetworksResult,
  GetScriptsArgs,
  GetScriptsResult,
  GetTemplatesArgs,
  GetTemplatesResult,
  GetUsersArgs,
  GetUsersResult,
} from "./lists";
import type {
  GetAvailabilityArgs,
  GetAvailabilityResult,
  GetScriptTextArgs,
  GetScriptTextResult,
  GetUtilizationArgs,
  GetUtilizationResult,
} from "./machineInfo";

/** The data sources by name, each an (untyped at the boundary) body on a client. */
export const DATA_SOURCES = {
  getUsers: async (client: VmApiClient, args: GetUsersArgs): Promise<GetUsersResult> => ({
    users: await client.users.list(args),
  }),
  getNetworks: async (client: VmApiClient, args: GetNetworksArgs): Promise<GetNetworksResult> => ({
    networks: await client.networks.list(args),
  }),
  getTemplates: async (client: VmApiClient, args: GetTemplatesArgs): Promise<GetTemplatesResult> => ({
    templates: await client.templates.list(args),
  }),
  getMachines: async (client: VmApiClient, args: GetMachinesArgs): Promise<GetMachinesResult> => {
    const { maxItems = 10_000, ...filters } = args;
    const machines: Machine[] = [];
    for await (const machine of client.machines.listAll(filters)) {
      if (machines.length >= maxItems) break;
      machines.push(machine);
    }
    return { machines };
  },
  getScripts: async (client: VmApiClient, args: GetScriptsArgs): Promise<GetScriptsResult> => ({
    scripts: await client.scripts.list(args),
  }),
  getScriptText: async (client: VmApiClient, args: GetScriptTextArgs): Promise<GetScriptTextResult> => ({
    text: await client.scripts.text(args.scriptId),
  }),
  getAvailability: (client: VmApiClient, args: GetAvailabilityArgs): Promise<GetAvailabilityResult> =>
    client.machines.availability(args.region, args.machineType),
  getUtilization: (client: VmApiClient, args: GetUtilizationArgs): Promise<GetUtilizationResult> =>
    client.machines.utilization(args.machineId, args.billingMonth),
} as const;

/** The name of a data source. */
export type DataSourceName = keyof typeof DATA_SOURCES;

/** True when `name` names a data source. */
export function isDataSource(name: string): name is DataSourceName {
  return Object.hasOwn(DATA_SOURCES, name);
}

/** Runs data source `name` on `client` with arguments as the plugin receives them (checked by the client). */
export function runDataSource(
  name: DataSourceName,
  client: VmApiClient,
  args: Record<string, unknown>,
): Promise<unknown> {
  const body = DATA_SOURCES[name] as (client: VmApiClient, args: Record<string, unknown>) => Promise<unknown>;
  return body(client, args);
}
