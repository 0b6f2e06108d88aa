/**
 * The provider runtime: what the serialized stub (stub.ts) calls inside the plugin process.
 * `dispatch(kind, method, args, settings)` is the one stable entry point that state written by
 * any version of this package calls; keep its signature unchanged.
 */
import { withAccount } from "./accounts";
import type { ProviderSettings } from "./settings";
import type { ResourceKind } from "./stub";

/** What one resource kind implements; `settings` come last so every method can build a client. */
export interface ResourceImplementation {
  check(
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    settings: ProviderSettings,
  ): Promise<unknown>;
  diff(
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    settings: ProviderSettings,
  ): Promise<unknown>;
  create(inputs: Record<string, unknown>, settings: ProviderSettings): Promise<unknown>;
  read(id: string, props: Record<string, unknown>, settings: ProviderSettings): Promise<unknown>;
  update(
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    settings: ProviderSettings,
  ): Promise<unknown>;
  delete(id: string, props: Record<string, unknown>, settings: ProviderSettings): Promise<void>;
}

type Method = keyof ResourceImplementation;

// Loaded lazily so a Script call never pays for loading the Machine implementation.
const implementations: Record<ResourceKind, () => ResourceImplementation> = {
  Machine: () => require("./machineProvider").machineProvider,
  Script: () => require("./scriptProvider").scriptProvider,
  ResourceDelegation: () => require("./resourceDelegationProvider").resourceDelegationProvider,
  MachineAccess: () => require("./machineAccessProvider").machineAccessProvider,
};

/** Routes one engine call to the implementation of `kind`. */
export async function dispatch(
  kind: ResourceKind,
  method: Method,
  args: unknown[],
  settings: ProviderSettings,
): Promise<unknown> {
  const load = implementations[kind];
  if (!load)
    throw new Error(`pulumi-vmapi: unknown resource kind ${JSON.stringify(kind)}; upgrade the package`);
  const impl = load();
  const fn = impl[method] as (...a: unknown[]) => Promise<unknown>;
  if (typeof fn !== "function") throw new Error(`pulumi-vmapi: ${kind} has no ${method}`);
  return withAccount(method, args, settings ?? {}, (a, s) => fn.call(impl, ...a, s));
}
