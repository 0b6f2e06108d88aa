/**
 * What the calls of one process share, in one place: the lookup cache, the time and randomness
 * their clients use, where lines that belong to no resource go (an account's retries and
 * throttling), the names `check` saw in the state, one request budget per account, the listings
 * reads share. Each door makes one per plugin process (one `preview` or `up`, where every resource
 * of the stack is served: runtime.ts, native/main.ts), so cached lookups and the budgets live
 * exactly as long as that command; a test makes its own, for example with a `sleep` that advances
 * an emulator's manual clock. It reaches an implementation only through its call's account
 * (`call.account.context`): no implementation holds one of its own. Nothing here is a writable
 * module global.
 */
import type { VmApiClientOptions } from "../../client/client";
import { RateLimiter } from "../../client/core/rateLimiter";
import { ListSnapshots } from "./listSnapshot";
import { LookupCache } from "./lookups";
import { NameMemory } from "./nameMemory";
import { engineProgress, engineWarning, type ProgressSink } from "./progress";

export interface ProviderContext {
  /** Lookups `check` makes (templates, networks, scripts, the key's account), remembered. */
  readonly lookups: LookupCache;
  /** The time and randomness every client of these providers uses (`Timing`); empty: the real ones. */
  readonly timing: Readonly<Pick<VmApiClientOptions, "sleep" | "now" | "random">>;
  /**
   * Where lines go that no resource's row takes: an account's retries and throttling, and every
   * line of the TypeScript door (a dynamic provider writes only to the stack's log).
   */
  readonly progress: ProgressSink;
  /** The names `check` saw in the state, for the names of replacements (naming.ts). */
  readonly names: NameMemory;
  /** Where warnings go that no resource's row takes (as `progress`). */
  readonly warn: ProgressSink;
  /** One request budget per account, by the account's digest (`Account.key`): see `rateLimiterFor` (rateLimiters.ts). */
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
    // are the machine watchers, which machineWatcher.ts keeps per Account, and the accounts and
    // configurations accounts.ts resolves, which it keeps per context object).
    snapshots: new ListSnapshots(timing),
  };
}

/** Milliseconds since the epoch on the context's clock. */
export function nowOf(context: ProviderContext): number {
  return (context.timing.now ?? Date.now)();
}
