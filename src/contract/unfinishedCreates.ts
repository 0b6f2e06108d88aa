/**
 * What a create leaves in the API until it has finished, so that a create cut short by a
 * process that dies (its provider killed, out of memory, a lost CI runner) can be told apart from
 * anything else with the same name, by the next `pulumi up` or by `vmapi-recover-pending`.
 *
 * A machine is created under its **creating name**, `<name> (creating <token>)`, and renamed to
 * `<name>` as the last step of its create, once it has settled. A machine that still has the
 * creating name was therefore never handed to a stack: the create that made it did not finish.
 * A script cannot be renamed (scripts are immutable), so its create first makes a **marker**, a
 * disabled script under the creating name, and removes it as its last step: a script whose marker
 * exists was made by a create that did not finish.
 *
 * The token is a digest of the resource's identity alone (a TypeScript resource's naming seed:
 * project, stack, type, parent and resource name; a plugin resource's URN), not of its name: a plugin's auto-name is drawn anew by each
 * deployment, so the next `up` may give the resource another name than the one its unfinished
 * create used. Only the same resource of the same stack makes the same token, and nothing of the
 * seed can be read back from it. What an unfinished create left is found by the suffix.
 */
import * as crypto from "crypto";

/** The longest name the API takes (the request schemas' bound). */
const MAX_NAME_LENGTH = 255;
const TOKEN_LENGTH = 10;

/**
 * A resource's identity from the parts that identify it (a TypeScript resource's project, stack,
 * type, parent and name: its naming seed; a plugin resource's URN): a digest, so the state holds
 * no more than a fixed-length hex string and nothing of the parts can be read back from it.
 */
export function namingSeed(parts: readonly string[]): string {
  return crypto.createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/**
 * The identity of the plugin's resource of `urn` (`urn:pulumi:<stack>::<project>::<type>::<name>`):
 * the same for every deployment of it. The plugin is told the URN with every call, so it keeps
 * nothing of it in state; `vmapi-recover-pending` reads it from the pending create's URN.
 */
export function urnIdentity(urn: string): string {
  return namingSeed(["urn", urn]);
}

/**
 * What identifies a TypeScript resource in the inputs its create was given (the internal inputs
 * its class adds): its naming seed, else (a program of another copy of the package) its resource
 * name, else nothing.
 */
export function createIdentity(inputs: Record<string, unknown>): string {
  const { __namingSeed: seed, __resourceName: name } = inputs;
  return typeof seed === "string" ? seed : typeof name === "string" ? name : "";
}

/** How a creating name ends, `token` its resource's: ` (creating <token>)`. */
function creatingEnd(token: string): string {
  return ` (creating ${token})`;
}

/** How every creating name ends, whichever resource's (creatingEnd of any token). */
const CREATING_END = new RegExp(`${creatingEnd(`[0-9a-f]{${TOKEN_LENGTH}}`).replace(/[()]/g, "\\$&")}$`);

/**
 * Pure: whether `name` ends as a creating name does, whichever resource's (a name that does not
 * is nobody's creating name, and needs no digest to tell).
 */
export function endsAsCreating(name: string): boolean {
  return CREATING_END.test(name);
}

/** What the creating names of the resource `identity` end with: ` (creating <token>)`. */
export function creatingSuffix(identity: string): string {
  const token = crypto
    .createHash("sha256")
    .update(JSON.stringify(["unfinished-create", identity]))
    .digest("hex")
    .slice(0, TOKEN_LENGTH);
  return creatingEnd(token);
}

/**
 * The name a resource carries (a machine) or marks (a script) while its create is unfinished:
 * `<name> (creating <token>)`, the name shortened when the whole would pass the API's bound.
 */
export function creatingName(name: string, identity: string): string {
  const suffix = creatingSuffix(identity);
  return name.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
}

/** The records of `records` that carry a creating name of the resource `identity`. */
export function leftByUnfinishedCreates<T extends { name: string }>(
  records: readonly T[],
  identity: string,
): T[] {
  const suffix = creatingSuffix(identity);
  return records.filter((record) => record.name.endsWith(suffix));
}

/** The name a creating name stands for (as far as it was not shortened). */
export function nameBeforeCreating(creating: string, identity: string): string {
  const suffix = creatingSuffix(identity);
  return creating.endsWith(suffix) ? creating.slice(0, -suffix.length) : creating;
}

/** The text of a script's marker: what it is, for anyone who sees it in a listing. */
export function markerText(name: string): string {
  return (
    `# pulumi-vmapi: marks an unfinished create of the script ${JSON.stringify(name)}.\n` +
    `# The create removes it when it finishes; the next pulumi up removes it otherwise.\n`
  );
}
