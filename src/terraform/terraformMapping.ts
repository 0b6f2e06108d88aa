/**
 * What a Terraform state of the service's provider (`Paperspace/terraform-provider-paperspace`)
 * becomes in a Pulumi stack: each `paperspace_machine` a `vmapi:index:Machine` and each
 * `paperspace_script` a `vmapi:index:Script`, with their ids and names made from their addresses
 * (logicalNames.ts). The engine reads each of them through the plugin's `Read` at import, so the
 * code it generates holds the resource as the API has it now; the state only says which ids to
 * take, and the one input the API may not tell (a machine's `templateId`).
 *
 * Nothing is dropped silently: every instance that is not imported is in `leftOut` with the
 * reason, and whatever makes the migration unsafe (no id, an id twice, nothing of the provider)
 * is a problem naming the address, and nothing is imported.
 */
import { distinctNames } from "./logicalNames";
import type { TerraformInstance } from "./terraformState";

/** The plugin's resource type of each Terraform type that has one. */
export const RESOURCE_TYPES: Readonly<Record<string, string>> = {
  paperspace_machine: "vmapi:index:Machine",
  paperspace_script: "vmapi:index:Script",
};

/** Why each Terraform type of the provider that has no resource here is left out. */
export const LEFT_OUT_TYPES: Readonly<Record<string, string>> = {
  paperspace_network:
    "no Network resource here: the API creates networks outside this provider; a machine keeps its `networkId`, and `getNetworks` reads them",
  paperspace_autoscaling_group:
    "no counterpart: the machine API this provider serves has no autoscaling groups; keep it in Terraform",
};

/** Why each data source of the provider needs nothing imported. */
export const DATA_SOURCES: Readonly<Record<string, string>> = {
  paperspace_template: "a data source: nothing to import; read templates with `vmapi:index:getTemplates`",
  paperspace_user: "a data source: nothing to import; read users with `vmapi:index:getUsers`",
  paperspace_network: "a data source: nothing to import; read networks with `vmapi:index:getNetworks`",
  paperspace_job_storage: "a data source with no counterpart: this provider has no job storage",
};

/** The prefix of the provider's types. */
const PROVIDER_PREFIX = "paperspace_";

/** One resource to import. */
export interface ResourceToImport {
  /** The Terraform address it comes from. */
  address: string;
  type: string;
  /** Its Pulumi name (the logical name, and the variable in generated code). */
  name: string;
  id: string;
  /** Inputs the plugin's `Read` may not tell, taken from the state. */
  inputs?: Record<string, unknown>;
}

/** An instance of the state not imported, and why. */
export interface LeftOut {
  address: string;
  reason: string;
}

/** Something to know about a resource that is imported. */
export interface ImportNote {
  address: string;
  note: string;
}

/** Something in the state that makes the migration unsafe. */
export interface MigrationProblem {
  address: string;
  problem: string;
}

/** What the migration does with a state. */
export interface MigrationPlan {
  imports: ResourceToImport[];
  leftOut: LeftOut[];
  notes: ImportNote[];
  problems: MigrationProblem[];
}

/** The plan for `instances` (readTerraformState's list). */
export function planMigration(instances: readonly TerraformInstance[]): MigrationPlan {
  const leftOut: LeftOut[] = [];
  const problems: MigrationProblem[] = [];
  const taken: TerraformInstance[] = [];
  for (const instance of instances) {
    const reason = leftOutReason(instance);
    if (reason === undefined) taken.push(instance);
    else leftOut.push({ address: instance.address, reason });
  }
  if (!instances.some((i) => i.type.startsWith(PROVIDER_PREFIX))) {
    problems.push({
      address: "the state",
      problem:
        instances.length === 0
          ? "it holds no resources"
          : "it holds no resource of the Paperspace provider (paperspace_machine, paperspace_script): is it the state of another configuration?",
    });
  }
  const names = distinctNames(taken, (i) => i.type.slice(PROVIDER_PREFIX.length));
  const imports = taken.map((instance, i) => toImport(instance, names[i], problems));
  problems.push(...duplicateIds(imports));
  const notes = taken
    .filter((i) => i.status === "tainted")
    .map((i) => ({
      address: i.address,
      note: "imported as it is, though Terraform marked it tainted (its next apply would have replaced it)",
    }));
  return { imports, leftOut, notes, problems };
}

/** Why `instance` is not imported, or undefined when it is. */
function leftOutReason(instance: TerraformInstance): string | undefined {
  if (!instance.type.startsWith(PROVIDER_PREFIX)) {
    return `of another provider (${instance.provider}): left to Terraform`;
  }
  if (instance.mode === "data") {
    return DATA_SOURCES[instance.type] ?? "a data source this migration does not know: nothing to import";
  }
  if (instance.status === "deposed") {
    return "a deposed object (Terraform replaced it and has yet to destroy it): destroy or forget it in Terraform";
  }
  if (RESOURCE_TYPES[instance.type] !== undefined) return undefined;
  return LEFT_OUT_TYPES[instance.type] ?? `${instance.type} is not a type this migration knows`;
}

function toImport(instance: TerraformInstance, name: string, problems: MigrationProblem[]): ResourceToImport {
  const id = instance.attributes.id;
  if (typeof id !== "string" || id === "") {
    problems.push({ address: instance.address, problem: "it has no `id` attribute: it was never created" });
  }
  const resource: ResourceToImport = {
    address: instance.address,
    type: RESOURCE_TYPES[instance.type],
    name,
    id: typeof id === "string" ? id : "",
  };
  const template = instance.attributes.template_id;
  if (instance.type === "paperspace_machine" && typeof template === "string" && template !== "") {
    resource.inputs = { templateId: template };
  }
  return resource;
}

/** An id taken twice: two addresses of one resource (a `moved` block gone wrong, a copied state). */
function duplicateIds(imports: readonly ResourceToImport[]): MigrationProblem[] {
  const seen = new Map<string, string>();
  const problems: MigrationProblem[] = [];
  for (const resource of imports) {
    if (resource.id === "") continue;
    const key = `${resource.type} ${resource.id}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, resource.address);
    else problems.push({ address: resource.address, problem: `its id ${resource.id} is also ${first}'s` });
  }
  return problems;
}
