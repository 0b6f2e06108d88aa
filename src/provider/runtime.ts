/**
 * The provider runtime: what the serialized stub (stub.ts) calls inside the plugin process.
 * `dispatch(kind, method, args, settings)` is the one stable entry point that state written by
 * any version of this package calls; keep its signature unchanged.
 */
import { withAccount } from "./shared/accounts";
import { secretInputs, withoutSecretValues } from "./shared/checks";
import type { ProviderSettings } from "./shared/settings";
import type { ResourceKind } from "./shared/stub";

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
  Machine: () => require("./machine/machineProvider").machineProvider,
  Script: () => require("./script/scriptProvider").scriptProvider,
  ResourceDelegation: () => require("./delegation/resourceDelegationProvider").resourceDelegationProvider,
  MachineAccess: () => require("./access/machineAccessProvider").machineAccessProvider,
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
  try {
    return await withAccount(method, args, settings ?? {}, (a, s) => fn.call(impl, ...a, s));
  } catch (err) {
    throw withoutSecrets(err, args[INPUTS_AT[method]]);
  }
}

/** Where each method's inputs (or stored outputs, which hold them) are among its arguments. */
const INPUTS_AT: Record<Method, number> = { check: 1, diff: 2, create: 0, read: 1, update: 2, delete: 1 };

/**
 * `err` with the values of the program's secret inputs masked in what the engine prints: its
 * message and a partial failure's reasons. The engine strips secret marks before calling a
 * dynamic provider, so an error that quotes an input (an API refusal, a mismatch) would show a
 * secret in plain text.
 */
function withoutSecrets(err: unknown, inputs: unknown): unknown {
  if (!(err instanceof Error) || inputs === null || typeof inputs !== "object") return err;
  const values = inputs as Record<string, unknown>;
  const secrets = secretInputs(values);
  if (secrets.length === 0) return err;
  err.message = withoutSecretValues(err.message, secrets, values);
  // The plugin prints the stack of a failed check, diff, read or delete: it repeats the message.
  if (err.stack !== undefined) err.stack = withoutSecretValues(err.stack, secrets, values);
  const failure = err as Error & { reasons?: unknown };
  if (Array.isArray(failure.reasons))
    failure.reasons = failure.reasons.map((r) =>
      typeof r === "string" ? withoutSecretValues(r, secrets, values) : r,
    );
  return err;
}
