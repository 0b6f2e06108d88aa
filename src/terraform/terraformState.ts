/**
 * A Terraform state, read: either the state file itself (format version 4, what `terraform state
 * pull` prints and `terraform.tfstate` holds) or `terraform show -json` / `tofu show -json`
 * (format 1.x). Both come out as one flat list of resource instances, each with its Terraform
 * address, so the mapping (terraformMapping.ts) never knows which form it was given.
 *
 * The schemas hold only what the migration reads; Terraform's other fields pass through. A
 * failure names the field (`resources[3].instances[0].attributes`) or the address, never a value:
 * a state holds passwords in plain text.
 */
import { z } from "zod";

/** The only state file format this reader knows (Terraform 0.12 and later, OpenTofu). */
export const STATE_FORMAT_VERSION = 4;
/** The major version of `show -json`'s format this reader knows. */
export const SHOW_JSON_MAJOR = 1;

/** One resource instance of a state, whichever form it came from. */
export interface TerraformInstance {
  /** Its address, as Terraform prints it: `module.gpu[0].paperspace_machine.worker["a"]`. */
  address: string;
  mode: "managed" | "data";
  type: string;
  /** The resource's name in its block (`worker`). */
  name: string;
  /** The modules it is in, outermost first, each with its instance key. */
  modules: AddressStep[];
  /** Its `count` index or `for_each` key, if any. */
  key?: string | number;
  /** The provider's address (`registry.terraform.io/paperspace/paperspace`), as the state names it. */
  provider: string;
  /** Its attributes (`id` among them), as the provider stored them. */
  attributes: Record<string, unknown>;
  /** Set for an object Terraform replaced but could not destroy (`deposed`), or one marked `tainted`. */
  status?: "deposed" | "tainted";
}

/** A module step of an address: `module.gpu[0]` is `{ name: "gpu", key: 0 }`. */
export interface AddressStep {
  name: string;
  key?: string | number;
}

/** A state that cannot be read: `where` names the field or the address. */
export class TerraformStateError extends Error {
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
    this.name = "TerraformStateError";
  }
}

const InstanceKey = z.union([z.string(), z.number()]);
const Attributes = z.record(z.string(), z.unknown());

const StateFileSchema = z.object({
  version: z.literal(STATE_FORMAT_VERSION),
  resources: z
    .array(
      z.object({
        module: z.string().optional(),
        mode: z.enum(["managed", "data"]),
        type: z.string().min(1),
        name: z.string().min(1),
        provider: z.string(),
        instances: z.array(
          z.object({
            index_key: InstanceKey.optional(),
            status: z.literal("tainted").optional(),
            deposed: z.string().optional(),
            attributes: Attributes,
          }),
        ),
      }),
    )
    .default([]),
});

const ShownResource = z.object({
  address: z.string().min(1),
  mode: z.enum(["managed", "data"]),
  type: z.string().min(1),
  name: z.string().min(1),
  index: InstanceKey.optional(),
  provider_name: z.string(),
  values: Attributes,
  tainted: z.boolean().optional(),
  deposed_key: z.string().optional(),
});

interface ShownModule {
  address?: string;
  resources?: z.infer<typeof ShownResource>[];
  child_modules?: ShownModule[];
}

const ShownModuleSchema: z.ZodType<ShownModule> = z.lazy(() =>
  z.object({
    address: z.string().optional(),
    resources: z.array(ShownResource).optional(),
    child_modules: z.array(ShownModuleSchema).optional(),
  }),
);

const ShowJsonSchema = z.object({
  format_version: z.string(),
  values: z.object({ root_module: ShownModuleSchema }).optional(),
});

/**
 * Reads `text`, a state file or `show -json` output. Throws TerraformStateError when it is not
 * JSON, is of a format version this reader does not know, or lacks a field the migration needs.
 */
export function readTerraformState(text: string): TerraformInstance[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TerraformStateError("the state", `not JSON (${(err as Error).message})`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new TerraformStateError("the state", "not a JSON object");
  }
  const top = json as Record<string, unknown>;
  if ("format_version" in top) return fromShowJson(top);
  if ("version" in top) return fromStateFile(top);
  throw new TerraformStateError(
    "the state",
    "neither a state file (no `version`) nor `terraform show -json` output (no `format_version`)",
  );
}

function fromStateFile(top: Record<string, unknown>): TerraformInstance[] {
  const version = top.version;
  if (typeof version === "number" && version > STATE_FORMAT_VERSION) {
    throw new TerraformStateError(
      "version",
      `state format version ${version} is newer than ${STATE_FORMAT_VERSION}, the one this reader knows; give it \`terraform show -json\` output instead`,
    );
  }
  if (typeof version === "number" && version < STATE_FORMAT_VERSION) {
    throw new TerraformStateError(
      "version",
      `state format version ${version} is older than ${STATE_FORMAT_VERSION}: run \`terraform init\` and \`terraform refresh\` with Terraform 0.12 or newer to upgrade it`,
    );
  }
  const state = parse(StateFileSchema, top);
  return state.resources.flatMap((resource) => {
    const modules = resource.module === undefined ? [] : parseModulePath(resource.module);
    return resource.instances.map((instance) => {
      const prefix = moduleAddress(modules);
      const address = `${prefix}${resource.mode === "data" ? "data." : ""}${resource.type}.${resource.name}${keySuffix(instance.index_key)}`;
      return {
        address,
        mode: resource.mode,
        type: resource.type,
        name: resource.name,
        modules,
        key: instance.index_key,
        provider: providerSource(resource.provider),
        attributes: instance.attributes,
        status: instance.deposed !== undefined ? "deposed" : instance.status,
      } satisfies TerraformInstance;
    });
  });
}

function fromShowJson(top: Record<string, unknown>): TerraformInstance[] {
  const shown = parse(ShowJsonSchema, top);
  const major = Number(shown.format_version.split(".")[0]);
  if (major !== SHOW_JSON_MAJOR) {
    throw new TerraformStateError(
      "format_version",
      `\`show -json\` format ${shown.format_version} is not ${SHOW_JSON_MAJOR}.x, the one this reader knows`,
    );
  }
  const found: TerraformInstance[] = [];
  const walk = (module: ShownModule) => {
    const modules = module.address === undefined ? [] : parseModulePath(module.address);
    for (const r of module.resources ?? []) {
      found.push({
        address: r.address,
        mode: r.mode,
        type: r.type,
        name: r.name,
        modules,
        key: r.index,
        provider: r.provider_name,
        attributes: r.values,
        status: r.deposed_key !== undefined ? "deposed" : r.tainted ? "tainted" : undefined,
      });
    }
    for (const child of module.child_modules ?? []) walk(child);
  };
  if (shown.values !== undefined) walk(shown.values.root_module);
  return found;
}

/** `schema`'s value of `value`, or a TerraformStateError naming the first field that is wrong. */
function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new TerraformStateError(fieldPath(issue.path), issue.message);
}

function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "the state";
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`))
    .join("");
}

/** `module.a[0].module.b["x"]` as its steps. */
export function parseModulePath(path: string): AddressStep[] {
  const steps: AddressStep[] = [];
  const step = /^module\.([A-Za-z_][A-Za-z0-9_-]*)(?:\[(\d+|"(?:[^"\\]|\\.)*")\])?(?:\.|$)/;
  let rest = path;
  while (rest.length > 0) {
    const match = step.exec(rest);
    if (match === null) throw new TerraformStateError(path, "not a module address");
    const key = match[2];
    steps.push({
      name: match[1],
      key: key === undefined ? undefined : key.startsWith('"') ? (JSON.parse(key) as string) : Number(key),
    });
    rest = rest.slice(match[0].length);
  }
  return steps;
}

function moduleAddress(modules: AddressStep[]): string {
  return modules.map((m) => `module.${m.name}${keySuffix(m.key)}.`).join("");
}

function keySuffix(key: string | number | undefined): string {
  if (key === undefined) return "";
  return typeof key === "number" ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

/** `provider["registry.terraform.io/paperspace/paperspace"].alias` → `registry.terraform.io/paperspace/paperspace`. */
function providerSource(provider: string): string {
  const match = /provider\["([^"]+)"\]/.exec(provider);
  return match === null ? provider : match[1];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The line of `text` (the state as read) where `instance`'s resource starts, for diagnostics:
 * its `"address"` in `show -json` output, its block (`"module"`, `"mode"`, `"type"`, `"name"`, in
 * the order Terraform writes them) in a state file. Undefined when it cannot be told.
 */
export function lineOf(text: string, instance: TerraformInstance): number | undefined {
  const json = (value: string) => escapeRegExp(JSON.stringify(value));
  const module = moduleAddress(instance.modules).replace(/\.$/, "");
  const block =
    (module === "" ? "\\{\\s*" : `"module":\\s*${json(module)},\\s*`) +
    `"mode":\\s*${json(instance.mode)},\\s*"type":\\s*${json(instance.type)},\\s*"name":\\s*${json(instance.name)}`;
  const match = new RegExp(`"address":\\s*${json(instance.address)}|${block}`).exec(text);
  return match === null ? undefined : text.slice(0, match.index).split("\n").length;
}
