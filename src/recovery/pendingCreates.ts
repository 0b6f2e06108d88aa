/**
 * Recovery after a `pulumi up` that was killed while it created resources. The engine records
 * each create it started as a pending operation; the resource may or may not exist. `pulumi up`
 * only warns of them and creates new ones beside any that do exist (a billed machine orphaned),
 * and `refresh --import-pending-creates` (CLI v3.259 to v3.274.1) drops the resources it was told to import.
 *
 * This turns the pending creates of this package's resources into what they really are: a
 * resource found in the API becomes a resource of the stack (with its id; the next `pulumi
 * refresh` reads the rest), one not found is dropped (nothing was created). A create that had not
 * finished left its machine under its creating name (contract/unfinishedCreates.ts), which only
 * that resource makes: that machine is the one, and the next `pulumi up` gives it its name. A
 * script is found by its name; the marker of its create is removed. Pending operations of other
 * providers are left as they are.
 */
import { createIdentity, creatingName } from "../contract/unfinishedCreates";
import { kindOfType } from "../contract/typeTokens";

/** The part of `pulumi stack export` this reads and writes; everything else passes through. */
export interface ExportedStack {
  version: number;
  deployment: {
    resources?: ExportedResource[];
    pending_operations?: Array<{ resource: ExportedResource; type: string }>;
    [key: string]: unknown;
  };
}

/** One resource as the state holds it. */
export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [key: string]: unknown;
}

/** How resources are found in the API by the name a create sent: the ids of those that exist. */
export interface ResourceFinder {
  machinesNamed(name: string): Promise<string[]>;
  scriptsNamed(name: string): Promise<string[]>;
  /** Removes the scripts named `name` (a create's marker, once its script is accounted for). */
  removeScriptsNamed(name: string): Promise<void>;
}

/** What happened to one pending create. */
export interface Resolution {
  urn: string;
  outcome: "adopted" | "dropped" | "left";
  /** The id of the adopted resource. */
  id?: string;
  /** Why, in a sentence for the person running the recovery. */
  reason: string;
}

/**
 * Per kind that can be looked up by name: which output holds the id, and how the resource is found
 * from the name its create sent and its creating name.
 */
const FINDABLE: Record<
  string,
  { idOutput: string; find: (f: ResourceFinder, name: string, creating: string) => Promise<string[]> }
> = {
  Machine: {
    idOutput: "machineId",
    // An unfinished create's machine has the creating name; one that finished has the name.
    find: async (f, name, creating) => {
      const unfinished = await f.machinesNamed(creating);
      return unfinished.length > 0 ? unfinished : f.machinesNamed(name);
    },
  },
  Script: {
    idOutput: "scriptId",
    find: async (f, name, creating) => {
      const ids = await f.scriptsNamed(name);
      await f.removeScriptsNamed(creating);
      return ids;
    },
  },
};

/**
 * Resolves every pending create of this package's resources. Returns a new export (the input is
 * not changed) and one resolution per pending create.
 */
export async function resolvePendingCreates(
  exported: ExportedStack,
  finder: ResourceFinder,
): Promise<{ stack: ExportedStack; resolutions: Resolution[] }> {
  const resources = [...(exported.deployment.resources ?? [])];
  const pending: NonNullable<ExportedStack["deployment"]["pending_operations"]> = [];
  const resolutions: Resolution[] = [];
  for (const op of exported.deployment.pending_operations ?? []) {
    const resolution = op.type === "creating" ? await resolveOne(op.resource, finder) : undefined;
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

async function resolveOne(
  resource: ExportedResource,
  finder: ResourceFinder,
): Promise<Resolution | undefined> {
  const kind = kindOfType(resource.type);
  if (kind === undefined) return undefined;
  const urn = resource.urn;
  const adoptId = resource.inputs?.adoptMachineId;
  if (kind === "Machine" && typeof adoptId === "string") {
    return { urn, outcome: "adopted", id: adoptId, reason: `adopts the existing machine ${adoptId}` };
  }
  const findable = FINDABLE[kind];
  if (!findable) {
    // Grants are idempotent and delegations expire: the next `up` makes them again.
    return { urn, outcome: "dropped", reason: `a ${kind} is made again by the next \`pulumi up\`` };
  }
  const name = resource.inputs?.name;
  if (typeof name !== "string") {
    return { urn, outcome: "left", reason: "its name is not readable (a secret?): resolve it by hand" };
  }
  const what = `${kind.toLowerCase()} of the name ${JSON.stringify(name)}`;
  const ids = await findable.find(finder, name, creatingName(name, createIdentity(resource.inputs ?? {})));
  if (ids.length === 0) return { urn, outcome: "dropped", reason: `no ${what} exists: it was never created` };
  if (ids.length > 1) {
    const several = `${ids.length} ${kind.toLowerCase()}s named ${JSON.stringify(name)}`;
    return { urn, outcome: "left", reason: `${several} exist (${ids.join(", ")}): resolve it by hand` };
  }
  return { urn, outcome: "adopted", id: ids[0], reason: `the ${what} exists as ${ids[0]}` };
}

/** The resource as the stack will hold it: the create's inputs, its id; `refresh` reads the rest. */
function adopted(resource: ExportedResource, id: string): ExportedResource {
  const kind = kindOfType(resource.type) ?? "";
  const idOutput = FINDABLE[kind]?.idOutput ?? "machineId";
  // The serialized provider (`__provider`) is among the inputs: a refresh needs it in the outputs.
  return { ...resource, id, outputs: { ...resource.inputs, [idOutput]: id } };
}
