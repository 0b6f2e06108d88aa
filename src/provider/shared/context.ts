/**
 * What the providers are given besides their arguments, in one place: the lookup cache, the
 * time and randomness their clients use, where progress lines go, and one request budget per
 * account. The runtime's providers share `PROCESS_CONTEXT`, made once per plugin process (one
 * `preview` or `up`, where every resource of the stack is served), so cached lookups and the
 * budgets live exactly as long as that command; a test builds providers on a context of its own
 * (`createMachineProvider(context)`), for example with a `sleep` that advances an emulator's
 * manual clock. The same goes for the names seen in the state (naming.ts). Nothing here is a
 * writable module global.
 */
import type { VmApiClientOptions } from "../../client/client";
import { RateLimiter } from "../../client/core/rateLimiter";
import { ListSnapshots } from "./listSnapshot";
import { LookupCache } from "./lookups";
import { NameMemory } from "./naming";
import { engineProgress, engineWarning, type ProgressSink } from "./progress";

export interface ProviderContext {
  /** Lookups `check` makes (templates, networks, scripts, the key's account), remembered. */
  readonly lookups: LookupCache;
  /** The time and randomness every client of these providers uses (`Timing`); empty: the real ones. */
  readonly timing: Readonly<Pick<VmApiClientOptions, "sleep" | "now" | "random">>;
  /** Where progress lines and notices go: the engine's log in a plugin. */
  readonly progress: ProgressSink;
  /** The names `check` saw in the state, for the names of replacements (naming.ts). */
  readonly names: NameMemory;
  /** Where warnings go: the engine's warnings in a plugin. */
  readonly warn: ProgressSink;
  /** One request budget per account, by `accountDigest`: see `rateLimiterFor` (rateLimiters.ts). */
  readonly rateLimiters: Map<string, RateLimiter>;
  /** Listings shared by the reads of one refresh, per account (listSnapshot.ts). */
  readonly snapshots: ListSnapshots;
}

/**
 * A context with its own empty cache and budgets, the real clock and the engine's log, unless
 * `parts` say otherwise.
 */
export function providerContext(parts: Partial<Omit<ProviderContext, "snapshots">> = {}): ProviderContext {
  const timing = parts.timing ?? {};
  return {
    lookups: new LookupCache(),
    progress: engineProgress,
    warn: engineWarning,
    names: new NameMemory(),
    rateLimiters: new Map(),
    ...parts,
    timing,
    // Always the context's own, on its own clock, even when `parts` spreads another context (so
    // are the machine watchers, which machineWatcher.ts keeps per context object).
    snapshots: new ListSnapshots(timing),
  };
}

/** The context of this plugin process, shared by the providers the runtime dispatches to. */
export const PROCESS_CONTEXT: ProviderContext = providerContext();

/** Milliseconds since the epoch on the context's clock. */
export function nowOf(context: ProviderContext): number {
  return (context.timing.now ?? Date.now)();
}
