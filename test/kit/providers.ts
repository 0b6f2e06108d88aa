/**
 * Implementations called as the dynamic door calls them: with the stack's settings last, turned
 * into the `Call` of their account on a context (as runtime.ts does), so a test or a benchmark
 * hands an implementation the settings of an emulator, and the account is resolved once per
 * context like in the plugin.
 */
import { accountOf } from "../../src/provider/account/account";
import type { ProviderContext } from "../../src/provider/shared/context";
import type { Call } from "../../src/provider/shared/resourceImplementation";
import type { ProviderSettings } from "../../src/provider/shared/settings";

/** The `Call` of `settings`' account on `context`, its lines to the context's sinks. */
export function callOf(settings: ProviderSettings, context: ProviderContext): Call {
  return { account: accountOf(settings, context), progress: context.progress, warn: context.warn };
}

/** `T`'s methods that take a `Call` last, taking the settings instead. */
export type ViaSettings<T> = {
  [K in keyof T]: T[K] extends (...args: [...infer A, Call]) => infer R
    ? (...args: [...A, ProviderSettings]) => R
    : T[K];
};

const WITH_CALL = ["check", "create", "read", "update", "delete"] as const;

/** `impl` with the settings last instead of a `Call`, resolved on `context`. */
export function viaSettings<T extends object>(impl: T, context: ProviderContext): ViaSettings<T> {
  const wrapped: Record<string, unknown> = { ...(impl as Record<string, unknown>) };
  for (const method of WITH_CALL) {
    const fn = (impl as Record<string, unknown>)[method] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof fn !== "function") continue;
    wrapped[method] = async (...args: unknown[]) => {
      const settings = args[args.length - 1] as ProviderSettings;
      return fn.call(impl, ...args.slice(0, -1), callOf(settings, context));
    };
  }
  return wrapped as ViaSettings<T>;
}
