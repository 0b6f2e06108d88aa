/**
 * List data sources: users, networks, templates, machines and scripts visible to the key,
 * with the equality filters of the list endpoints.
 */
import type {
  MachineFilters,
  NetworkFilters,
  ScriptFilters,
  TemplateFilters,
  UserFilters,
} from "../../client/listFilters";
import type { Machine, Network, Script, Template, User } from "../../client/schemas";
import { dataSource, outputTwin, programClient, type DataSourceOptions } from "./programClient";

/** Users of the account or team, filtered by any user field. */
export async function getUsers(
  args: UserFilters = {},
  options?: DataSourceOptions,
): Promise<{ users: User[] }> {
  return dataSource("getUsers", async () => ({ users: await programClient(options).users.list(args) }));
}
export const getUsersOutput = outputTwin(getUsers);

/** Networks of the account or team (one per region at least). */
export async function getNetworks(
  args: NetworkFilters = {},
  options?: DataSourceOptions,
): Promise<{ networks: Network[] }> {
  return dataSource("getNetworks", async () => ({
    networks: await programClient(options).networks.list(args),
  }));
}
export const getNetworksOutput = outputTwin(getNetworks);

/** Templates (public ones and the team's), filtered e.g. by `os` or `label`. */
export async function getTemplates(
  args: TemplateFilters = {},
  options?: DataSourceOptions,
): Promise<{ templates: Template[] }> {
  return dataSource("getTemplates", async () => ({
    templates: await programClient(options).templates.list(args),
  }));
}
export const getTemplatesOutput = outputTwin(getTemplates);

/** Every machine matching the filters, all pages (at most `maxItems`, default 10,000). */
export async function getMachines(
  args: MachineFilters & { maxItems?: number } = {},
  options?: DataSourceOptions,
): Promise<{ machines: Machine[] }> {
  const { maxItems = 10_000, ...filters } = args;
  return dataSource("getMachines", async () => {
    const machines: Machine[] = [];
    for await (const machine of programClient(options).machines.listAll(filters)) {
      if (machines.length >= maxItems) break;
      machines.push(machine);
    }
    return { machines };
  });
}
export const getMachinesOutput = outputTwin(getMachines);

/** Scripts of the user or team, filtered by any script field. */
export async function getScripts(
  args: ScriptFilters = {},
  options?: DataSourceOptions,
): Promise<{ scripts: Script[] }> {
  return dataSource("getScripts", async () => ({ scripts: await programClient(options).scripts.list(args) }));
}
export const getScriptsOutput = outputTwin(getScripts);
