/**
 * Auto-naming: a resource without an explicit name gets `<resource name>-<7 characters>`, and the
 * same program and stack give the same name in every preview, in the `up` that follows and in a
 * saved plan (`pulumi preview --save-plan`, `pulumi up --plan`).
 *
 * Nothing random is drawn: the engine's own `randomSeed` never reaches a Node dynamic provider, so
 * the resource class computes a seed on the program side from what identifies the resource
 * (project, stack, type, parent, name: `namingInputs`) and passes it as the internal input
 * `__namingSeed`. The provider derives the suffix from that seed and the name being replaced:
 * - a resource that has a name keeps it, whatever else changed (aliases, state written by 0.1.0);
 * - a create gets `next(seed, none)`;
 * - a replacement gets `next(seed, old auto-name)`: the engine calls `check` a second time
 *   without olds for a replacement, after the `check` with olds, in the same plugin process,
 *   which remembers the old name by seed (`NameMemory`). The old name is known alike in preview
 *   and up, even when the input that forces the replace is unknown in the preview (the id of a
 *   script that is replaced too), and an auto-name holds no secret. A digest of the inputs would
 *   have neither property: an unknown in the preview gives another name in the up, and any input
 *   may be a secret (the plugin is sent secrets unmarked, so it cannot leave them out). For the
 *   same reason a declared old name (maybe a secret) is only avoided, never digested.
 * The internal inputs never show as a diff: `diff` compares only the diff tables' inputs, and
 * `check` carries their old values over, so a renamed resource (an alias) or state written before
 * an internal input existed shows no change.
 */
import * as crypto from "crypto";
import { UNKNOWN } from "./unknown";

type Props = Record<string, unknown>;

/** The inputs naming adds to every resource's inputs; `read` reports them back as inputs. */
export const NAMING_INPUT_KEYS = ["__resourceName", "__autoNamed", "__namingSeed"] as const;

/** Naming inputs whose old value `check` keeps, so that they never differ from the state's. */
const CARRIED_KEYS = ["__resourceName", "__namingSeed"] as const;

const SUFFIX_LENGTH = 7;
const SUFFIX_RANGE = 36n ** BigInt(SUFFIX_LENGTH);

/**
 * The old name of each resource that a `check` with olds saw in this plugin process (one
 * `preview` or `up`), by naming seed: what the `check` without olds of its replacement starts from.
 */
export class NameMemory {
  private readonly names = new Map<string, StateName>();

  /** Records the name the resource of `seed` has in the state. */
  remember(seed: string, name: StateName): void {
    this.names.set(seed, name);
  }

  /** The name the resource of `seed` has in the state, when a check with olds saw it. */
  nameOf(seed: string): StateName | undefined {
    return this.names.get(seed);
  }
}

/** A name in the state, and whether it is an auto-name (else it was declared, maybe secret). */
export interface StateName {
  readonly name: string;
  readonly auto: boolean;
}

/** The seed of `parts`: a digest, so the state holds no more than a fixed-length hex string. */
export function namingSeed(parts: readonly string[]): string {
  return crypto.createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/**
 * The name that follows the auto-name `previous` for the resource of `seed`:
 * `<resource name>-<suffix>`, the suffix a digest of both, never equal to `avoid` (by default
 * `previous`: a replacement never takes the old name).
 */
export function nextName(resourceName: string, seed: string, previous?: string, avoid = previous): string {
  for (let round = 0; ; round++) {
    const digest = crypto
      .createHash("sha256")
      .update(JSON.stringify([seed, previous ?? null, round]))
      .digest();
    const suffix = (digest.readBigUInt64BE(0) % SUFFIX_RANGE).toString(36).padStart(SUFFIX_LENGTH, "0");
    const name = `${resourceName}-${suffix}`;
    if (name !== avoid) return name;
  }
}

/**
 * `news` with the name applied and the naming inputs as the state has them: a declared name as
 * is; else the name the resource already has (marked `__autoNamed`); else the next name after the
 * one it is replacing (remembered by `memory`), or the first one for a create.
 */
export function withAutoName(olds: Props, news: Props, memory: NameMemory): Props {
  const inputs: Props = { ...news, ...carriedOver(olds) };
  for (const key of CARRIED_KEYS) if (inputs[key] === undefined) delete inputs[key];
  const seed = seedOf(news);
  const old: StateName | undefined =
    typeof olds.name === "string" && olds.name !== UNKNOWN
      ? { name: olds.name, auto: olds.__autoNamed === true }
      : undefined;
  if (old !== undefined && seed !== undefined) memory.remember(seed, old);
  if (news.name !== undefined) return inputs;
  if (old?.auto) return { ...inputs, name: old.name, __autoNamed: true };
  if (typeof news.__resourceName !== "string" || seed === undefined) return inputs;
  const replaced = old ?? memory.nameOf(seed);
  const previous = replaced?.auto ? replaced.name : undefined;
  // The plugin draws from the engine's randomSeed (the same in a saved plan), as Pulumi's own
  // providers do; the dynamic door, which is never given one, from the resource's naming seed.
  const draw = typeof news.__randomSeed === "string" && news.__randomSeed !== "" ? news.__randomSeed : seed;
  const name = nextName(news.__resourceName, draw, previous, replaced?.name);
  return { ...inputs, name, __autoNamed: true };
}

/**
 * The old values of the carried naming inputs, when there are olds: present where the state has
 * them, left out where it does not (state written before the input existed), so a check never
 * makes them differ from the state.
 */
function carriedOver(olds: Props): Props {
  if (Object.keys(olds).length === 0) return {};
  return Object.fromEntries(CARRIED_KEYS.map((key) => [key, olds[key]]));
}

function seedOf(news: Props): string | undefined {
  const seed = news.__namingSeed;
  if (typeof seed === "string" && seed !== UNKNOWN) return seed;
  // A program of another copy of the package may send no seed: the resource name stands in.
  return typeof news.__resourceName === "string" ? news.__resourceName : undefined;
}
