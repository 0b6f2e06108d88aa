/**
 * Auto-naming: a resource without an explicit name gets `<resource name>-<7 characters>`, and the
 * same program and stack give the same name in every preview, in the `up` that follows and in a
 * saved plan (`pulumi preview --save-plan`, `pulumi up --plan`).
 *
 * The name is drawn from the call's naming seed (`call.resource.namingSeed`: the engine's
 * `randomSeed` on the plugin, as Pulumi's own providers do; on the TypeScript door, which is never
 * given one, the resource's identity, a digest of what identifies it: project, stack, type,
 * parent, name) and the name being replaced:
 * - a resource that has a name keeps it, whatever else changed (aliases, state written by 0.1.0);
 * - a create gets `next(seed, none)`;
 * - a replacement gets `next(seed, old auto-name)`: the engine calls `check` a second time
 *   without olds for a replacement, after the `check` with olds, in the same plugin process,
 *   which remembers the old name by the resource's identity (`NameMemory`, in the process's
 *   context). The old name is known alike in preview and up, even when the input that forces the
 *   replace is unknown in the preview (the id of a script that is replaced too), and an auto-name
 *   holds no secret. A digest of the inputs would have neither property: an unknown in the
 *   preview gives another name in the up, and any input may be a secret (the plugin is sent
 *   secrets unmarked, so it cannot leave them out). For the same reason a declared old name
 *   (maybe a secret) is only avoided, never digested.
 * Whether a name was drawn here is the door's to keep (`CheckResult.autoNamed`), and the call's
 * to tell again (`call.resource.autoNamed`).
 */
import * as crypto from "crypto";
import type { StateName } from "../account/nameMemory";
import type { Call } from "./resourceImplementation";
import { UNKNOWN } from "./unknown";

type Props = Record<string, unknown>;

const SUFFIX_LENGTH = 7;
const SUFFIX_RANGE = 36n ** BigInt(SUFFIX_LENGTH);

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

/** `news` with their name, and whether it was drawn by auto-naming. */
export interface Named {
  inputs: Props;
  autoNamed: boolean;
}

/**
 * `news` with the name applied: a declared name as is; else the name the resource already has
 * (when it was an auto-name); else the next name after the one it is replacing (remembered in the
 * process's `NameMemory`), or the first one for a create.
 */
export function withAutoName(olds: Props, news: Props, call: Call): Named {
  const { name: resourceName, identity, namingSeed, autoNamed } = call.resource;
  const memory = call.account.context.names;
  const old: StateName | undefined =
    typeof olds.name === "string" && olds.name !== UNKNOWN ? { name: olds.name, auto: autoNamed } : undefined;
  if (old !== undefined && identity !== "") memory.remember(identity, old);
  if (news.name !== undefined) return { inputs: news, autoNamed: false };
  if (old?.auto) return { inputs: { ...news, name: old.name }, autoNamed: true };
  if (resourceName === undefined || identity === "") return { inputs: news, autoNamed: false };
  const replaced = old ?? memory.nameOf(identity);
  const previous = replaced?.auto ? replaced.name : undefined;
  const name = nextName(resourceName, namingSeed, previous, replaced?.name);
  return { inputs: { ...news, name }, autoNamed: true };
}
