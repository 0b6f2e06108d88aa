/**
 * What `new pulumi.dynamic.Resource(provider, ...)` sends the engine: the serialized provider under
 * `__provider`, and the resource's URN.
 */
import * as pulumi from "@pulumi/pulumi";
import { HarnessUsageError } from "./errors";
import { Secret, type Props } from "./values";

/** The key under which `dynamic.Resource` stores the serialized provider in inputs and outputs. */
export const PROVIDER_KEY = "__provider";

// ---------------------------------------------------------------------------------------------
// Provider serialization (what `new pulumi.dynamic.Resource(provider, ...)` puts in `__provider`)
// ---------------------------------------------------------------------------------------------

export interface SerializedProvider {
  /** The module text stored under `__provider` in inputs and outputs (state). */
  text: string;
  /** True when the closure captured a secret Output: the SDK then marks `__provider` secret. */
  containsSecrets: boolean;
}

/** Serializes exactly as the SDK's `serializeFunctionMaybeSecret` (dynamic/index.js) does. */
export async function serializeProvider(provider: object): Promise<SerializedProvider> {
  const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return { text: sf.text, containsSecrets: sf.containsSecrets };
}

/** The `__provider` text for `provider` (assert on it to prove what the closure did or did not capture). */
export async function serializeProviderLikeEngine(provider: object): Promise<string> {
  return (await serializeProvider(provider)).text;
}

/**
 * The inputs the engine receives for `new dynamic.Resource(provider, name, props)`: `props` plus
 * `__provider` (secret-wrapped when the closure contains secrets, as the SDK does).
 */
export async function dynamicInputs(provider: object, props: Props): Promise<Props> {
  if (props[PROVIDER_KEY] !== undefined) {
    throw new HarnessUsageError("A dynamic resource must not define the __provider key");
  }
  const { text, containsSecrets: isSecretText } = await serializeProvider(provider);
  return { ...props, [PROVIDER_KEY]: isSecretText ? new Secret(text) : text };
}

// ---------------------------------------------------------------------------------------------
// URNs
// ---------------------------------------------------------------------------------------------

export interface UrnOptions {
  stack?: string;
  project?: string;
  /** `dynamic.Resource`'s `module` argument: type becomes `pulumi-nodejs:dynamic/<module>:<type>`. */
  module?: string;
  /** `dynamic.Resource`'s `type` argument (default "Resource"). */
  type?: string;
  /** Qualified type of the parent, e.g. "my:component:Vm" (stack parent is omitted, as in real URNs). */
  parentType?: string;
}

/** `urn:pulumi:stack::project::pulumi-nodejs:dynamic:Resource::name` (defaults match the plugin's). */
export function dynamicUrn(name: string, opts: UrnOptions = {}): string {
  const type = `pulumi-nodejs:dynamic${opts.module ? `/${opts.module}` : ""}:${opts.type ?? "Resource"}`;
  const qualified = opts.parentType ? `${opts.parentType}$${type}` : type;
  return `urn:pulumi:${opts.stack ?? "stack"}::${opts.project ?? "project"}::${qualified}::${name}`;
}

/** The name and the unqualified type a URN names (the parts every resource RPC also sends). */
export function urnParts(urn: string): { name: string; type: string } {
  const parts = urn.split("::");
  if (parts.length < 4 || !parts[0].startsWith("urn:pulumi:")) throw new HarnessUsageError(`bad URN: ${urn}`);
  const qualified = parts[2];
  return { name: parts.slice(3).join("::"), type: qualified.slice(qualified.lastIndexOf("$") + 1) };
}
