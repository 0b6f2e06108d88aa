/**
 * What each data source does, protocol-free: its request(s) on the account of its call. The
 * TypeScript door (lists.ts, machineInfo.ts) runs them from the program on the account its
 * configuration names (programClient.ts); the plugin runs them for an `Invoke` on its provider's
 * account.
 */
import { z } from "zod";
import type { AccountCall } from "../shared/resourceImplementation";
import type { Machine, Network, Script, Template, User, Utilization } from "../../contract/schemas";
import type {
  MachineFilters,
  NetworkFilters,
  ScriptFilters,
  TemplateFilters,
  UserFilters,
} from "../../contract/listFilters";
import type { DedicatedGpuMachineType, Region } from "../../contract/constants";

/** Arguments of {@link getUsers}: equality filters on any user field. */
export type GetUsersArgs = UserFilters;

/** What {@link getUsers} returns. */
export interface GetUsersResult {
  /** The users of the key's account (a team key: the team's users). */
  users: User[];
}

/** Arguments of {@link getNetworks}: equality filters on any network field (e.g. `region`). */
export type GetNetworksArgs = NetworkFilters;

/** What {@link getNetworks} returns. */
export interface GetNetworksResult {
  /** The networks of the account or team: one per region at least. */
  networks: Network[];
}

/** Arguments of {@link getTemplates}: equality filters on any template field (e.g. `os`, `label`). */
export type GetTemplatesArgs = TemplateFilters;

/** What {@link getTemplates} returns. */
export interface GetTemplatesResult {
  /** Public templates and the team's own. */
  templates: Template[];
}

/** The rule of getMachines' own argument (the package schema reads its type here: a whole number). */
export const GetMachinesOptionsSchema = z.object({
  /** At most this many machines (0: none). */
  maxItems: z.number().int().min(0),
});
/** getMachines' own argument, as its rule types it. */
export type GetMachinesOptions = z.infer<typeof GetMachinesOptionsSchema>;

/** Arguments of {@link getMachines}: equality filters on machine fields, and a cap. */
export type GetMachinesArgs = MachineFilters & {
  /**
   * At most this many machines (default 10,000); the pages beyond are not fetched.
   * @defaultValue 10000
   */
  maxItems?: number;
};

/** What {@link getMachines} returns. */
export interface GetMachinesResult {
  /** The machines the key can see that match, across all pages. */
  machines: Machine[];
}

/** Arguments of {@link getScripts}: equality filters on any script field but its machines. */
export type GetScriptsArgs = ScriptFilters;

/** What {@link getScripts} returns. */
export interface GetScriptsResult {
  /** The scripts of the user or team (without their text: see {@link getScriptText}). */
  scripts: Script[];
}

/** Arguments of {@link getAvailability}. */
export interface GetAvailabilityArgs {
  /** One of the API's regions, e.g. `"East Coast (NY2)"`. */
  region: Region;
  /** GPU+, P4000, P5000, P6000 or V100: the only types that report availability. */
  machineType: DedicatedGpuMachineType;
}

/** What {@link getAvailability} returns. */
export interface GetAvailabilityResult {
  /** Whether a machine of this type can be requested in this region now. */
  available: boolean;
}

/** Arguments of {@link getUtilization}. */
export interface GetUtilizationArgs {
  /** The machine's id, e.g. `"psabc123"`. */
  machineId: string;
  /** The billing month, `YYYY-MM`. */
  billingMonth: string;
}

/** What {@link getUtilization} returns: seconds used and the rates, as the API reports them. */
export type GetUtilizationResult = Utilization;

/** Arguments of {@link getScriptText}. */
export interface GetScriptTextArgs {
  /** The script's id. */
  scriptId: string;
}

/** What {@link getScriptText} returns. */
export interface GetScriptTextResult {
  /** The script's text (never part of the script record). */
  text: string;
}

/** The data sources by name, each an (untyped at the boundary) body on its call's account. */
export const DATA_SOURCES = {
  getUsers: async ({ account }: AccountCall, args: GetUsersArgs): Promise<GetUsersResult> => ({
    users: await account.client.users.list(args),
  }),
  getNetworks: async ({ account }: AccountCall, args: GetNetworksArgs): Promise<GetNetworksResult> => ({
    networks: await account.client.networks.list(args),
  }),
  getTemplates: async ({ account }: AccountCall, args: GetTemplatesArgs): Promise<GetTemplatesResult> => ({
    templates: await account.client.templates.list(args),
  }),
  getMachines: async ({ account }: AccountCall, args: GetMachinesArgs): Promise<GetMachinesResult> => {
    const { maxItems = 10_000, ...filters } = args;
    if (!GetMachinesOptionsSchema.shape.maxItems.safeParse(maxItems).success)
      throw new RangeError(`maxItems must be a whole number, 0 or more (got ${JSON.stringify(maxItems)})`);
    const machines: Machine[] = [];
    for await (const machine of account.client.machines.listAll(filters)) {
      if (machines.length >= maxItems) break;
      machines.push(machine);
    }
    return { machines };
  },
  getScripts: async ({ account }: AccountCall, args: GetScriptsArgs): Promise<GetScriptsResult> => ({
    scripts: await account.client.scripts.list(args),
  }),
  getScriptText: async ({ account }: AccountCall, args: GetScriptTextArgs): Promise<GetScriptTextResult> => ({
    text: await account.client.scripts.text(args.scriptId),
  }),
  getAvailability: ({ account }: AccountCall, args: GetAvailabilityArgs): Promise<GetAvailabilityResult> =>
    account.client.machines.availability(args.region, args.machineType),
  getUtilization: ({ account }: AccountCall, args: GetUtilizationArgs): Promise<GetUtilizationResult> =>
    account.client.machines.utilization(args.machineId, args.billingMonth),
} as const;

/** The name of a data source. */
export type DataSourceName = keyof typeof DATA_SOURCES;

/** True when `name` names a data source. */
export function isDataSource(name: string): name is DataSourceName {
  return Object.hasOwn(DATA_SOURCES, name);
}

/** Runs data source `name` on the account of `call`, with arguments as the plugin receives them (checked by the client). */
export function runDataSource(
  name: DataSourceName,
  call: AccountCall,
  args: Record<string, unknown>,
): Promise<unknown> {
  const body = DATA_SOURCES[name] as (call: AccountCall, args: Record<string, unknown>) => Promise<unknown>;
  return body(call, args);
}
