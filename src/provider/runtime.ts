/**
 * The provider runtime: what the provider module in state (stub.ts) loads inside the plugin
 * process. Two entry points are a contract with state written by any version of this package;
 * keep their signatures unchanged: `resourceProvider(kind)`, which the module text of this version
 * calls, and `dispatch(kind, method, args, settings)`, which the serialized stubs of earlier
 * versions call.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as MachineProviderModule from "./machine/machineProvider";
import type * as ScriptProviderModule from "./script/scriptProvider";
import type * as DelegationProviderModule from "./delegation/resourceDelegationProvider";
import type * as AccessProviderModule from "./access/machineAccessProvider";
import type * as RestartProviderModule from "./restart/machineRestartProvider";
import { withAccount } from "./shared/accounts";
import { secretInputs, withoutSecretValues } from "./shared/checks";
import type { EngineProps, ResourceImplementation } from "./shared/resourceImplementation";
import type { ProviderSettings } from "./shared/settings";
import type { ResourceKind } from "./shared/stub";

/** An implementation as the runtime holds it: any kind's, over the engine's bags. */
type Implementation = ResourceImplementation<EngineProps, EngineProps>;

/** The name of one method, as the stub forwards it. */
type Method = keyof Implementation;

/**
 * Each kind's implementation, loaded on first use so a Script call never pays for loading the
 * Machine implementation (the `import type`s above are erased: they only type the `require`s).
 */
const IMPLEMENTATIONS: { readonly [K in ResourceKind]: () => Implementation } = {
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

/**
 * The provider object of `kind` that the plugin calls, one per module text and process: `configure`
 * keeps the stack's `vmapi:` settings on it (in the plugin's memory only, never in state), and
 * every other method goes through `dispatch`.
 */
export function resourceProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  let settings: ProviderSettings = {};
  const call = (method: Method, args: unknown[]) => dispatch(kind, method, args, settings);
  return {
    async configure(req) {
      settings = {
        apiKey: req.config.get("vmapi:apiKey"),
        baseUrl: req.config.get("vmapi:baseUrl"),
        pollScale: req.config.get("vmapi:pollScale"),
        accounts: req.config.get("vmapi:accounts"),
      };
    },
    check: (olds, news) => call("check", [olds, news]) as Promise<pulumi.dynamic.CheckResult>,
    diff: (id, olds, news) => call("diff", [id, olds, news]) as Promise<pulumi.dynamic.DiffResult>,
    create: (inputs) => call("create", [inputs]) as Promise<pulumi.dynamic.CreateResult>,
    read: (id, props) => call("read", [id, props]) as Promise<pulumi.dynamic.ReadResult>,
    update: (id, olds, news) => call("update", [id, olds, news]) as Promise<pulumi.dynamic.UpdateResult>,
    delete: (id, props) => call("delete", [id, props]) as Promise<void>,
  };
}

/** Routes one engine call to the implementation of `kind`. */
export async function dispatch(
  kind: ResourceKind,
  method: Method,
  args: unknown[],
  settings: ProviderSettings,
): Promise<unknown> {
  // Both come from state, which any version may have written: check them at run time too.
  const load = Object.hasOwn(IMPLEMENTATIONS, kind) ? IMPLEMENTATIONS[kind] : undefined;
  if (!load)
    throw new Error(`pulumi-vmapi: unknown resource kind ${JSON.stringify(kind)}; upgrade the package`);
  const impl = load();
  if (typeof impl[method] !== "function") throw new Error(`pulumi-vmapi: ${kind} has no ${method}`);
  try {
    return await withAccount(method, args, settings ?? {}, (a, s) => invoke(impl, method, a, s));
  } catch (err) {
    throw withoutSecrets(err, args[INPUTS_AT[method]]);
  }
}

/**
 * The one place where the engine's arguments become an implementation's typed ones: the bags are
 * taken as they are, unvalidated (resourceImplementation.ts says why: `check` validates new
 * inputs, and stored outputs of any version are read with fallbacks, never refused).
 */
function invoke(impl: Implementation, method: Method, args: unknown[], settings: ProviderSettings) {
  const fn = impl[method] as (...typed: unknown[]) => Promise<unknown>;
  return fn.call(impl, ...args, settings);
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
