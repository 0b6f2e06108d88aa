/**
 * What the providers are given besides their arguments, in one place: the lookup cache, the
 * time and randomness their clients use, and where progress lines go. The runtime's providers
 * share `PROCESS_CONTEXT`, made once per plugin process (one `preview` or `up`), so cached
 * lookups live exactly as long as that command; a test builds providers on a context of its own
 * (`createMachineProvider(context)`), for example with a `sleep` that advances an emulator's
 * manual clock. The same goes for the names seen in the state (naming.ts). Nothing here is a writable module global.
 */
import type { VmApiClientOptions } from "../client/client";
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
}

/** A context with its own empty cache, the real clock and the engine's log, unless `parts` say otherwise. */
export function providerContext(parts: Partial<ProviderContext> = {}): ProviderContext {
  return {
    lookups: new LookupCache(),
    timing: {},
    progress: engineProgress,
    warn: engineWarning,
    names: new NameMemory(),
    ...parts,
  };
}

/** The context of this plugin process, shared by the providers the runtime dispatches to. */
export const PROCESS_CONTEXT: ProviderContext = providerContext();

/** Milliseconds since the epoch on the context's clock. */
export function nowOf(context: ProviderContext): number {
  return (context.timing.now ?? Date.now)();
}
