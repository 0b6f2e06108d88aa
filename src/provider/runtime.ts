/**
 * The provider runtime: what the provider module in state (stub.ts) loads inside the plugin
 * process. Two entry points are a contract with state written by any version of this package;
 * keep their signatures unchanged: `resourceProvider(kind)`, which the module text of this version
 * calls, and `dispatch(kind, method, args, settings)`, which the serialized stubs of earlier
 * versions call.
 */
import type * as pulumi from "@pulumi/pulumi";
import { accountOf } from "./account/account";
import { implementationOf, isResourceKind, type Implementation, type ResourceKind } from "./implementations";
import { withAccount } from "./account/namedAccounts";
import { PROCESS_CONTEXT } from "./shared/context";
import type { Call } from "./shared/resourceImplementation";
import { withoutSecrets } from "./shared/secretErrors";
import type { ProviderSettings } from "./shared/settings";

/** The name of one method, as the stub forwards it. */
type Method = keyof Implementation;

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
  if (!isResourceKind(kind))
    throw new Error(`pulumi-vmapi: unknown resource kind ${JSON.stringify(kind)}; upgrade the package`);
  const impl = implementationOf(kind);
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
 * inputs, and stored outputs of any version are read with fallbacks, never refused). Every method
 * but `diff` gets the `Call` of the resource's account, resolved once per process.
 */
function invoke(impl: Implementation, method: Method, args: unknown[], settings: ProviderSettings) {
  const fn = impl[method] as (...typed: unknown[]) => Promise<unknown>;
  if (method === "diff") return fn.call(impl, ...args);
  const call: Call = {
    account: accountOf(settings, PROCESS_CONTEXT),
    progress: PROCESS_CONTEXT.progress,
    warn: PROCESS_CONTEXT.warn,
  };
  return fn.call(impl, ...args, call);
}

/** Where each method's inputs (or stored outputs, which hold them) are among its arguments. */
const INPUTS_AT: Record<Method, number> = { check: 1, diff: 2, create: 0, read: 1, update: 2, delete: 1 };
