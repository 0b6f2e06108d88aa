/**
 * Recovery after a `pulumi up` that was killed while it created resources. The engine records
 * each create it started as a pending operation; the resource may or may not exist. `pulumi up`
 * only warns of them and creates new ones beside any that do exist (a billed machine orphaned),
 * and `refresh --import-pending-creates` (CLI v3.259 to v3.274.1) drops the resources it was told to import.
 *
 * This turns the pending creates of this package's resources into what they really are, looked
 * up in the account each was made in (stackAccounts.ts): what the create made becomes a resource
 * of the stack (with its id; the next `pulumi refresh` reads the rest), and a create that made
 * nothing is dropped. Only what proves that a record is the resource's own is taken
 * (contract/unfinishedCreates.ts): a machine still under the create's creating name (the next
 * `pulumi up` gives it its name), a script whose create's marker is there (the marker is then
 * removed). A namesake is anyone's (names are not unique, or a script's may be kept by
 * `retainOnDelete`): it is named in the report, never taken; the next `up` treats it as the
 * provider does. Pending operations of other providers are left as they are.
 */
import { kindOfType, pluginName } from "../contract/typeTokens";
import { createIdentity, urnIdentity } from "../contract/unfinishedCreates";
import { findMadeBy, type ResourceFinder } from "./madeByCreate";
import {
  isSecretValue,
  plainValue,
  SHOWN_EXPORT_HINT,
  type ExportedResource,
  type ExportedStack,
} from "./stackExport";

export type { ResourceFinder } from "./madeByCreate";

/** The finder of the account a pending create (as the export with its secrets shown holds it) was made in; else why none. */
export type FinderOf = (resource: ExportedResource) => ResourceFinder | { unreadable: string };

/** What happened to one pending create. */
export interface Resolution {
  urn: string;
  outcome: "adopted" | "dropped" | "left";
  /** The id of the adopted resource. */
  id?: string;
  /** Why, in a sentence for the person running the recovery (never a secret). */
  reason: string;
}

/** The output that holds a resource's id, per kind that is looked up. */
const ID_OUTPUT: Record<string, string> = { Machine: "machineId", Script: "scriptId" };

/**
 * Resolves every pending create of this package's resources in `exported`, looking each up with
 * `finderOf` and reading its inputs in `shown` (the same state with its secrets shown; by default
 * `exported` itself). Returns a new export (the input is not changed) and one resolution per
 * pending create; secrets stay in the new export as `exported` holds them.
 */
export async function resolvePendingCreates(
  exported: ExportedStack,
  finderOf: FinderOf,
  shown: ExportedStack = exported,
): Promise<{ stack: ExportedStack; resolutions: Resolution[] }> {
  const resources = [...(exported.deployment.resources ?? [])];
  const pending: NonNullable<ExportedStack["deployment"]["pending_operations"]> = [];
  const resolutions: Resolution[] = [];
  const shownOps = shown.deployment.pending_operations ?? [];
  for (const op of exported.deployment.pending_operations ?? []) {
    const plain = shownOps.find((o) => o.type === op.type && o.resource.urn === op.resource.urn)?.resource;
    const resolution =
      op.type === "creating" ? await resolveOne(op.resource, plain ?? op.resource, finderOf) : undefined;
    if (resolution === undefined || resolution.outcome === "left") {
      pending.push(op);
      if (resolution) resolutions.push(resolution);
      continue;
    }
    resolutions.push(resolution);
    if (resolution.outcome === "adopted") resources.push(adopted(op.resource, resolution.id!));
  }
  const deployment = { ...exported.deployment, resources, pending_operations: pending };
  return { stack: { ...exported, deployment }, resolutions };
}

/** One pending create: `resource` as the export to repair holds it, `plain` with its secrets shown. */
async function resolveOne(
  resource: ExportedResource,
  plain: ExportedResource,
  finderOf: FinderOf,
): Promise<Resolution | undefined> {
  const kind = kindOfType(resource.type);
  if (kind === undefined) return undefined;
  const urn = resource.urn;
  const adoptId = resource.inputs?.adoptMachineId;
  if (kind === "Machine" && typeof adoptId === "string") {
    return { urn, outcome: "adopted", id: adoptId, reason: `adopts the existing machine ${adoptId}` };
  }
  if (ID_OUTPUT[kind] === undefined) {
    // Grants are idempotent and delegations expire: the next `up` makes them again.
    return { urn, outcome: "dropped", reason: `a ${kind} is made again by the next \`pulumi up\`` };
  }
  const name = plainValue(plain.inputs?.name);
  if (name === "encrypted" || typeof name.value !== "string") {
    const why = name === "encrypted" ? `it is encrypted in this export: ${SHOWN_EXPORT_HINT}` : "it has none";
    return { urn, outcome: "left", reason: `its name is not readable (${why}): resolve it by hand` };
  }
  const finder = finderOf(plain);
  if ("unreadable" in finder)
    return { urn, outcome: "left", reason: `${finder.unreadable}: resolve it by hand` };
  // A secret name is looked up, never shown.
  const shownName = isSecretValue(resource.inputs?.name) ? "its (secret) name" : JSON.stringify(name.value);
  const found = await findMadeBy(
    kind as "Machine" | "Script",
    finder,
    name.value,
    identityOf(plain),
    shownName,
  );
  return { urn, ...found };
}

/**
 * What the creating names of `resource` are made from: a plugin resource's URN (the plugin is told
 * it with every call), a TypeScript resource's naming seed among the inputs its class registered.
 */
function identityOf(resource: ExportedResource): string {
  return pluginName(resource.type) !== undefined
    ? urnIdentity(resource.urn)
    : createIdentity(resource.inputs ?? {});
}

/** The resource as the stack will hold it: the create's inputs, its id; `refresh` reads the rest. */
function adopted(resource: ExportedResource, id: string): ExportedResource {
  const idOutput = ID_OUTPUT[kindOfType(resource.type) ?? ""] ?? "machineId";
  // The serialized provider (`__provider`) is among the inputs: a refresh needs it in the outputs.
  return { ...resource, id, outputs: { ...resource.inputs, [idOutput]: id } };
}
