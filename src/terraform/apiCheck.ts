/**
 * Before anything is imported, the ids the state names are looked up in the API: a machine or a
 * script the API does not know (deleted outside Terraform, a state of another account) is a
 * problem naming its Terraform address, so the import stops before the engine reads anything.
 *
 * The lookup is two listings (machines page by page, 1,000 a page, and scripts), not a request per
 * resource: a migration of 200 machines sends 2 requests here. Reads only.
 */
import { collect, type VmApiClient } from "../client";
import type { MigrationProblem, ResourceToImport } from "./terraformMapping";

/** The most machines one migration looks up (pages of 1,000: at most 10 requests). */
export const MAX_LISTED_MACHINES = 10_000;

/** The problems of `imports` whose ids `client`'s account does not have. */
export async function unknownIds(
  client: VmApiClient,
  imports: readonly ResourceToImport[],
): Promise<MigrationProblem[]> {
  const wants = (type: string) => imports.some((r) => r.type === type);
  const [machines, scripts] = await Promise.all([
    wants("vmapi:index:Machine")
      ? collect(client.machines.listAll({}), { max: MAX_LISTED_MACHINES })
      : Promise.resolve([]),
    wants("vmapi:index:Script") ? client.scripts.list() : Promise.resolve([]),
  ]);
  const known: Record<string, Set<string>> = {
    "vmapi:index:Machine": new Set(machines.map((m) => m.id)),
    "vmapi:index:Script": new Set(scripts.map((s) => s.id)),
  };
  return imports
    .filter((r) => r.id !== "" && !known[r.type].has(r.id))
    .map((r) => ({
      address: r.address,
      problem: `the API does not know its id ${r.id} (${r.type === "vmapi:index:Machine" ? "machine" : "script"} deleted outside Terraform, or a state of another account)`,
    }));
}
