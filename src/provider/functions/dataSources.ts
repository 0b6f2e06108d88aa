/**
 * The data sources, protocol-free, each declared once: its arguments and result (`Get<Name>Args`,
 * `Get<Name>Result`), its words, and its request(s) on the account of its call. The TypeScript
 * door (dataSourceFunctions.ts, generated from these) runs them from the program on the
 * account its configuration names (programClient.ts); the plugin runs them for an `Invoke` on its
 * provider's account.
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
import type { ModelType } from "../shared/resourceDeclaration";

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

/**
 * One data source, declared once: its words and its request(s). Its TypeScript function and that
 * function's `...Output` twin (dataSourceFunctions.ts) are generated from it, and the plugin's
 * function is described by it (tools/schema); both doors run `run`.
 */
export interface DataSourceDeclaration<Args, Result> {
  /** What it gives: its TypeScript function's TSDoc and the schema's description. */
  readonly description: string;
  /** Its result is a secret: the `...Output` twin returns it as one, and the plugin marks it. */
  readonly secret?: boolean;
  /** Types standing for arguments that lead to no zod field themselves (tools/schema/numberKinds.ts). */
  readonly models?: readonly ModelType[];
  /** Its request(s) on the client of its call's account. */
  run(call: AccountCall, args: Args): Promise<Result>;
}

/** A declaration typed by its arguments and result (`Get<Name>Args`, `Get<Name>Result`). */
const declareDataSource = <Args, Result>(declaration: DataSourceDeclaration<Args, Result>) => declaration;

/** The data sources by name (`getUsers`: its TypeScript function, `vmapi:index:getUsers`: the plugin's). */
export const DATA_SOURCES = {
  getUsers: declareDataSource<GetUsersArgs, GetUsersResult>({
    description: "Users of the account or team, filtered by any user field.",
    run: async ({ account: { client } }, args) => ({ users: await client.users.list(args) }),
  }),
  getNetworks: declareDataSource<GetNetworksArgs, GetNetworksResult>({
    description: "Networks of the account or team (one per region at least).",
    run: async ({ account: { client } }, args) => ({ networks: await client.networks.list(args) }),
  }),
  getTemplates: declareDataSource<GetTemplatesArgs, GetTemplatesResult>({
    description: "Templates (public ones and the team's), filtered e.g. by `os` or `label`.",
    run: async ({ account: { client } }, args) => ({ templates: await client.templates.list(args) }),
  }),
  getMachines: declareDataSource<GetMachinesArgs, GetMachinesResult>({
    description: "Every machine matching the filters, all pages (at most `maxItems`, default 10,000).",
    models: [{ file: "src/provider/functions/dataSources.ts", type: "GetMachinesOptions" }],
    run: async ({ account: { client } }, args) => {
      const { maxItems = 10_000, ...filters } = args;
      if (!GetMachinesOptionsSchema.shape.maxItems.safeParse(maxItems).success)
        throw new RangeError(`maxItems must be a whole number, 0 or more (got ${JSON.stringify(maxItems)})`);
      const machines: Machine[] = [];
      for await (const machine of client.machines.listAll(filters)) {
        if (machines.length >= maxItems) break;
        machines.push(machine);
      }
      return { machines };
    },
  }),
  getScripts: declareDataSource<GetScriptsArgs, GetScriptsResult>({
    description: "Scripts of the user or team, filtered by any script field.",
    run: async ({ account: { client } }, args) => ({ scripts: await client.scripts.list(args) }),
  }),
  getScriptText: declareDataSource<GetScriptTextArgs, GetScriptTextResult>({
    description: "The text of a script (never part of the script record).",
    secret: true,
    run: async ({ account: { client } }, args) => ({ text: await client.scripts.text(args.scriptId) }),
  }),
  getAvailability: declareDataSource<GetAvailabilityArgs, GetAvailabilityResult>({
    description: "Whether machines of this type can be requested in this region now.",
    run: ({ account: { client } }, args) => client.machines.availability(args.region, args.machineType),
  }),
  getUtilization: declareDataSource<GetUtilizationArgs, GetUtilizationResult>({
    description: "Seconds used and rates of a machine in a billing month.",
    run: ({ account: { client } }, args) => client.machines.utilization(args.machineId, args.billingMonth),
  }),
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
  const declaration = DATA_SOURCES[name] as DataSourceDeclaration<Record<string, unknown>, unknown>;
  return declaration.run(call, args);
}
