/**
 * The internal inputs: what the TypeScript classes register beside a resource's own inputs for
 * what the engine never gives a Node dynamic provider (the resource's name and naming seed,
 * namingInputs.ts; `customTimeouts`, `replaceOnChanges` and which inputs are secret,
 * resourceOptions.ts; the SDK's `__provider`), and what the door keeps in state with them
 * (`__autoNamed`). Keys start with `__`: no diff and no display shows them. The door
 * (dynamicProvider.ts) splits them off every bag the engine hands it, tells the implementation
 * what they mean in its `Call` (here), and stores them back into what the engine keeps.
 *
 * State written by every earlier version must keep working: 0.1.0 wrote `__resourceName` alone
 * and a random auto-name, so each key is read with what its absence means.
 */
import type * as pulumi from "@pulumi/pulumi";
import { boundOf, type Bound, type Operation } from "../shared/operationOptions";
import type { Assert, EngineProps, ResourceFacts, Same } from "../shared/resourceImplementation";
import { UNKNOWN } from "../shared/unknown";

/** The naming inputs: the resource's name and naming seed (namingInputs.ts), and whether its name was drawn. */
export const NAMING_INPUT_KEYS = ["__resourceName", "__autoNamed", "__namingSeed"] as const;

/** The resource options' inputs (resourceOptions.ts). */
export const OPTION_INPUT_KEYS = ["__customTimeouts", "__replaceOnChanges", "__secretInputs"] as const;

/** Naming inputs whose old value `check` keeps, so that they never differ from the state's. */
const CARRIED_KEYS = ["__resourceName", "__namingSeed"] as const;

/** `customTimeouts` as the class registers it: the durations as written (Go syntax: "30s", "5m", "1h30m"). */
export interface TimeoutInputs {
  create?: string;
  update?: string;
  delete?: string;
}

/** The internal inputs with the types the classes write; and `__provider`, the provider module (providerModule.ts). */
export interface InternalInputs {
  __resourceName: string;
  __autoNamed: boolean;
  __namingSeed: string;
  __customTimeouts: TimeoutInputs;
  __replaceOnChanges: string[];
  __secretInputs: string[];
  __provider: string;
}

/** The internal part of a bag: every `__` key any version stored, the known ones typed. */
export type Internal = Partial<InternalInputs> & EngineProps;

/** `bag` split into what the implementation sees and its internal part (every key that starts with `__`). */
export function splitInternal(bag: EngineProps): [plain: EngineProps, internal: Internal] {
  const plain: EngineProps = {};
  const internal: Internal = {};
  for (const [key, value] of Object.entries(bag)) (key.startsWith("__") ? internal : plain)[key] = value;
  return [plain, internal];
}

/**
 * What the internal inputs say of the resource: its name, its identity (its naming seed, else its
 * name: a program of another copy of the package may send no seed), which is also its naming
 * seed on this door, and whether its name was drawn (`autoNamed`: for `check`, the olds' flag).
 */
export function resourceFactsOf(
  internal: Internal,
  autoNamed = internal.__autoNamed === true,
): ResourceFacts {
  const name = typeof internal.__resourceName === "string" ? internal.__resourceName : undefined;
  const seed = internal.__namingSeed;
  const identity = typeof seed === "string" && seed !== UNKNOWN ? seed : (name ?? "");
  return { name, identity, namingSeed: identity, autoNamed };
}

/** The inputs the program made secret, as the class listed them. */
export function secretInputsOf(internal: Internal): string[] {
  return stringsOf(internal.__secretInputs);
}

/** `replaceOnChanges` as the class registered it (nothing while it is unknown). */
export function replaceOnChangesOf(internal: Internal): string[] {
  return stringsOf(internal.__replaceOnChanges);
}

/** The `customTimeouts` bound of `operation` as the class registered it, when the resource has a valid one. */
export function customTimeoutOf(internal: Internal, operation: Operation): Bound | undefined {
  const written = (internal.__customTimeouts as EngineProps | undefined)?.[operation];
  return boundOf(operation, parseDuration(written), String(written));
}

/** Failures of `customTimeouts` as written (named as the user wrote it, never as the internal input). */
export function timeoutFailures(internal: Internal): pulumi.dynamic.CheckFailure[] {
  const timeouts = (internal.__customTimeouts ?? {}) as EngineProps;
  return Object.entries(timeouts)
    .filter(([, written]) => !((parseDuration(written) ?? 0) > 0))
    .map(([operation, written]) => ({
      property: "",
      reason: `customTimeouts.${operation} must be a positive duration such as "30s", "5m" or "1h30m" (got ${JSON.stringify(written)})`,
    }));
}

/**
 * What state keeps of a `check`: the new internal inputs, but the naming ones as the state has
 * them when there is a state (present where it has them, left out where it does not: state
 * written before they existed), so a check never makes them differ; `__autoNamed` as the check
 * drew the name.
 */
export function checkedInternal(olds: Internal | undefined, news: Internal, autoNamed: boolean): Internal {
  const kept: Internal = { ...news };
  delete kept.__autoNamed;
  if (olds !== undefined) for (const key of CARRIED_KEYS) delete kept[key];
  for (const key of CARRIED_KEYS) if (olds?.[key] !== undefined) kept[key] = olds[key];
  return autoNamed ? { ...kept, __autoNamed: true } : kept;
}

/** The naming inputs among `internal`: what a refresh reports back as inputs. */
export function namingOf(internal: Internal): Internal {
  return Object.fromEntries(
    NAMING_INPUT_KEYS.filter((k) => internal[k] !== undefined).map((k) => [k, internal[k]]),
  );
}

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;

/** Milliseconds of a duration in the engine's syntax (Go's `time.ParseDuration`: "30s", "1h30m", "1.5m"); undefined if malformed. */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  if (text === "0") return 0;
  DURATION_PART.lastIndex = 0;
  let ms = 0;
  while (DURATION_PART.lastIndex < text.length) {
    const at = DURATION_PART.lastIndex;
    const part = DURATION_PART.exec(text);
    if (part === null || part.index !== at) return undefined;
    ms += Number(part[1]) * UNIT_MS[part[2]];
  }
  return ms;
}

function stringsOf(value: unknown): string[] {
  if (value === UNKNOWN || !Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === "string");
}

/* Compile-time check that InternalInputs lists exactly the keys this module names and the SDK's `__provider`. */
type _InternalInputsAreTheKeys = Assert<
  Same<
    keyof InternalInputs,
    (typeof NAMING_INPUT_KEYS)[number] | (typeof OPTION_INPUT_KEYS)[number] | "__provider"
  >
>;
