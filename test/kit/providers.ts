/**
 * Implementations called as the TypeScript door calls them (src/provider/dynamic/dynamicProvider.ts):
 * on the engine's bags, the internal `__` inputs included, and with the stack's settings last,
 * resolved on a context of the caller's (as runtime.ts resolves them on the process's). So a test
 * or a benchmark hands an implementation the settings of an emulator and a clock of its own, and
 * gets back what the engine would store. An implementation given as it is runs without the
 * serving layer (src/provider/shared/serving.ts): wrap it with `served` (providerTestKit.ts does)
 * for what every resource owes the engine, or use `implementationOf`.
 */
import { accountOf, Accounts } from "../../src/provider/account/accounts";
import { dynamicProvider, type DynamicProvider } from "../../src/provider/dynamic/dynamicProvider";
import type { Implementation } from "../../src/provider/implementations";
import type { ProviderContext } from "../../src/provider/account/context";
import type { Call } from "../../src/provider/shared/resourceImplementation";
import type { ProviderSettings } from "../../src/provider/account/settings";

/**
 * `T`'s methods, which take a `Call` last, taking the settings instead; left out, the settings the
 * implementation was wrapped with (a diff, which the engine calls with no settings of its own).
 */
export type ViaSettings<T> = {
  [K in keyof T]: T[K] extends (...args: [...infer A, Call]) => infer R
    ? (...args: [...A, ProviderSettings?]) => R
    : T[K];
};

/** How many bags (and ids) each method takes before the settings. */
const ARITY: Record<keyof DynamicProvider, number> = {
  check: 2,
  diff: 3,
  create: 1,
  read: 2,
  update: 3,
  delete: 2,
};

/** `impl` through the TypeScript door, with the settings last, resolved on `context` (`fallback` when left out). */
export function viaSettings<T extends object>(
  impl: T,
  context: ProviderContext,
  fallback: ProviderSettings = {},
): ViaSettings<T> {
  const wrapped: Record<string, unknown> = {};
  for (const [method, arity] of Object.entries(ARITY) as [keyof DynamicProvider, number][]) {
    wrapped[method] = (...args: unknown[]) => {
      const settings = args.length > arity ? (args[arity] as ProviderSettings) : fallback;
      const door = dynamicProvider(impl as unknown as Implementation, new Accounts(settings, context));
      return (door[method] as (...bags: unknown[]) => Promise<unknown>)(...args.slice(0, arity));
    };
  }
  return wrapped as ViaSettings<T>;
}

/** Settings of an account no test sends to (nothing listens there): for calls that send nothing. */
export const OFFLINE_SETTINGS: ProviderSettings = { apiKey: "offline-key", baseUrl: "http://127.0.0.1:9" };

/**
 * A `Call` as a door makes one, on the account of `settings` in `context`, its lines to the
 * context's sinks; `parts` say the rest (by default: a resource that is told no name, no secrets,
 * no bound).
 */
export function callOn(
  context: ProviderContext,
  parts: Partial<Omit<Call, "resource">> & { resource?: Partial<Call["resource"]> } = {},
  settings: ProviderSettings = OFFLINE_SETTINGS,
): Call {
  const { resource, ...rest } = parts;
  return {
    account: accountOf(settings, context),
    progress: context.progress,
    warn: context.warn,
    secretInputs: [],
    replaceOnChanges: [],
    ...rest,
    resource: { identity: "", namingSeed: "", autoNamed: false, ...resource },
  };
}
