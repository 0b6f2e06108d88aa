/**
 * The resource implementations both doors call (the dynamic door, runtime.ts; the plugin,
 * native/), by kind, derived from the declaration each resource folder makes
 * (`<folder>/<kind>Resource.ts`), which the generated resourceDeclarations.ts lists. Each
 * implementation is loaded on first use (the generated index's `load`), so a Script call never
 * loads the Machine implementation (its create, adoption, watcher and settle: most of the
 * provider's modules); a declaration loads zod and the contract, nothing of the provider.
 */
import { RESOURCE_DECLARATIONS } from "./resourceDeclarations";
import type { EngineProps, ResourceImplementation } from "./shared/resourceImplementation";
import { served } from "./shared/serving";

/** The resource kinds: each one's class name, and its type token's last part. */
export const RESOURCE_KINDS = RESOURCE_DECLARATIONS.map((declaration) => declaration.kind);

/** Which resource implementation a call goes to. */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** True when `kind` (from state any version wrote, or a type token) names a kind. */
export function isResourceKind(kind: unknown): kind is ResourceKind {
  return (RESOURCE_KINDS as readonly unknown[]).includes(kind);
}

/** An implementation as a door holds it: any kind's, over the engine's bags. */
export type Implementation = ResourceImplementation<EngineProps, EngineProps>;

/** Each kind's implementation as served, made on first use. */
const SERVED = new Map<ResourceKind, Implementation>();

/**
 * The implementation of `kind` as both doors call it, loaded on first use, under the serving layer
 * (shared/serving.ts), which applies what every resource owes the engine's contract; each call
 * brings its account's context.
 */
export function implementationOf(kind: ResourceKind): Implementation {
  let implementation = SERVED.get(kind);
  if (implementation === undefined) {
    const declaration = RESOURCE_DECLARATIONS.find((declared) => declared.kind === kind)!;
    const load: () => Implementation = declaration.load;
    SERVED.set(kind, (implementation = served(declaration, load())));
  }
  return implementation;
}
