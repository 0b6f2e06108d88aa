/**
 * The provider runtime, the TypeScript door's entry: what the provider module in state
 * (dynamic/providerModule.ts) loads inside the dynamic-provider plugin process. Two entry points are a contract with state written by any version of this package;
 * keep their signatures unchanged: `resourceProvider(kind)`, which the module text of this version
 * calls, and `dispatch(kind, method, args, settings)`, which the serialized stubs of earlier
 * versions call.
 */
import type * as pulumi from "@pulumi/pulumi";
import { Accounts } from "./account/accounts";
import { dynamicProvider, type DynamicProvider } from "./dynamic/dynamicProvider";
import { implementationOf, isResourceKind, type ResourceKind } from "./implementations";
import { providerContext, type ProviderContext } from "./account/context";
import type { ProviderSettings } from "./account/settings";

/** The name of one method, as the stub forwards it. */
type Method = keyof DynamicProvider;

/**
 * The provider object of `kind` that the plugin calls, one per module text and process: `configure`
 * keeps the stack's `vmapi:` settings on it (in the plugin's memory only, never in state), one
 * object per configuration, and every other method goes through `dispatch`.
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

/**
 * Routes one engine call to the implementation of `kind`, through the door's boundary
 * (dynamic/dynamicProvider.ts): the bags the engine sends taken as they are, unvalidated
 * (`check` validates new inputs, and stored outputs of any version are read with fallbacks,
 * never refused), on the accounts of the configuration `settings`, resolved once per process.
 */
export async function dispatch(
  kind: ResourceKind,
  method: Method,
  args: unknown[],
  settings: ProviderSettings,
): Promise<unknown> {
  // Both come from state, which any version may have written: check them at run time too.
  if (!isResourceKind(kind))
    throw new Error(`pulumi-vmapi: unknown resource kind ${JSON.stringify(kind)}; upgrade the package`);
  const impl = implementationOf(kind);
  if (typeof impl[method] !== "function") throw new Error(`pulumi-vmapi: ${kind} has no ${method}`);
  const provider = dynamicProvider(impl, new Accounts(settings ?? {}, processContext()));
  return (provider[method] as (...bags: unknown[]) => Promise<unknown>)(...args);
}

/**
 * The context of this plugin process (one `preview` or `up`), made at its first call: what every
 * resource the process serves shares (lookups, budgets, the names seen), its lines to the stack's
 * log.
 */
let context: ProviderContext | undefined;
function processContext(): ProviderContext {
  context ??= providerContext();
  return context;
}
