/**
 * The equality filters of the list endpoints, and how they travel in a query string: each
 * value as a string (booleans and numbers written out, null as "null", as the service's clients
 * sent them). Only known filter names are accepted, by the client before sending (filterQuery.ts in
 * the client) and by the emulator on receipt: a misspelt filter would otherwise be ignored by the server and match
 * everything.
 */
import {
  NetworkSchema,
  ScriptSchema,
  TemplateSchema,
  UserSchema,
  type Machine,
  type Network,
  type Script,
  type Template,
  type User,
} from "./schemas";

/**
 * Equality filters of GET /machines/getMachines (besides limit and skip): the fields the API
 * documents as filters, each checked at compile time to be a field of the listed wire object
 * (a machine is filtered by `machineId`, not `id`).
 */
export const MACHINE_FILTER_FIELDS = [
  "machineId",
  "name",
  "os",
  "ram",
  "cpus",
  "gpu",
  "storageTotal",
  "storageUsed",
  "usageRate",
  "shutdownTimeoutInHours",
  "performAutoSnapshot",
  "autoSnapshotFrequency",
  "autoSnapshotSaveCount",
  "agentType",
  "dtCreated",
  "state",
  "updatesPending",
  "networkId",
  "privateIpAddress",
  "publicIpAddress",
  "region",
  "userId",
  "teamId",
  "scriptId",
  "dtLastRun",
] as const satisfies readonly (Exclude<keyof Machine, "id"> | "machineId")[];
/** Equality filters of GET /scripts/getScripts: every field of a script but its machines. */
export const SCRIPT_FILTER_FIELDS = ScriptSchema.keyof().exclude(["machines"]).options;
/** Equality filters of GET /users/getUsers: every field of a user. */
export const USER_FILTER_FIELDS = UserSchema.keyof().options;
/** Equality filters of GET /networks/getNetworks: every field of a network. */
export const NETWORK_FILTER_FIELDS = NetworkSchema.keyof().options;
/** Equality filters of GET /templates/getTemplates: every field of a template. */
export const TEMPLATE_FILTER_FIELDS = TemplateSchema.keyof().options;

/** A filter value: sent as a string; `null` travels as the string "null". */
export type FilterValue = string | number | boolean | null;
/**
 * Filters on `fields` of wire object `T`, each typed as the field is (`email: 42` does not
 * compile for a user); a nullable field also takes `null`.
 */
export type FiltersOf<T, F extends keyof T> = { [K in F]?: Extract<T[K], FilterValue> };
/** Filters of `machines.list`/`listAll` and `getMachines` (`machineId` is the machine's `id`). */
export type MachineFilters = FiltersOf<
  Machine & {
    /** The machine's id, e.g. `psabc1234` (the machine's `id`). */
    machineId: string;
  },
  (typeof MACHINE_FILTER_FIELDS)[number]
>;
/** Filters of `scripts.list` and `getScripts`. */
export type ScriptFilters = FiltersOf<Script, (typeof SCRIPT_FILTER_FIELDS)[number]>;
/** Filters of `users.list` and `getUsers`. */
export type UserFilters = FiltersOf<User, (typeof USER_FILTER_FIELDS)[number]>;
/** Filters of `networks.list` and `getNetworks`. */
export type NetworkFilters = FiltersOf<Network, (typeof NETWORK_FILTER_FIELDS)[number]>;
/** Filters of `templates.list` and `getTemplates`. */
export type TemplateFilters = FiltersOf<Template, (typeof TEMPLATE_FILTER_FIELDS)[number]>;

/** Pure: one filter value as it travels. */
export function filterValueToString(value: FilterValue): string {
  if (value === null) return "null";
  return String(value);
}
