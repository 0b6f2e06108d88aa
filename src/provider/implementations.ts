/**
 * The resource implementations both doors call (the dynamic door, runtime.ts; the plugin,
 * native/), by kind, each loaded on first use so a Script call never pays for loading the
 * Machine implementation (the `import type`s below are erased: they only type the `require`s).
 */
import type * as MachineProviderModule from "./machine/machineProvider";
import type * as ScriptProviderModule from "./script/scriptProvider";
import type * as DelegationProviderModule from "./delegation/resourceDelegationProvider";
import type * as AccessProviderModule from "./access/machineAccessProvider";
import type * as RestartProviderModule from "./restart/machineRestartProvider";
import type { EngineProps, ResourceImplementation } from "./shared/resourceImplementation";

/** The resource kinds: each one's class name, and its type token's last part. */
export const RESOURCE_KINDS = [
  "Machine",
  "Script",
  "ResourceDelegation",
  "MachineAccess",
  "MachineRestart",
] as const;

/** Which resource implementation a call goes to. */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** True when `kind` (from state any version wrote, or a type token) names a kind. */
export function isResourceKind(kind: unknown): kind is ResourceKind {
  return (RESOURCE_KINDS as readonly unknown[]).includes(kind);
}

/** An implementation as a door holds it: any kind's, over the engine's bags. */
export type Implementation = ResourceImplementation<EngineProps, EngineProps>;

const LOADERS: { readonly [K in ResourceKind]: () => Implementation } = {
  Machine: () => (require("./machine/machineProvider") as typeof MachineProviderModule).machineProvider,
  Script: () => (require("./script/scriptProvider") as typeof ScriptProviderModule).scriptProvider,
  ResourceDelegation: () =>
    (require("./delegation/resourceDelegationProvider") as typeof DelegationProviderModule)
      .resourceDelegationProvider,
  MachineAccess: () =>
    (require("./access/machineAccessProvider") as typeof AccessProviderModule).machineAccessProvider,
  MachineRestart: () =>
    (require("./restart/machineRestartProvider") as typeof RestartProviderModule).machineRestartProvider,
};

/** The implementation of `kind` on the process's context. */
export function implementationOf(kind: ResourceKind): Implementation {
  return LOADERS[kind]();
}
