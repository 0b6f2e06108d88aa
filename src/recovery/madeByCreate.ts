/**
 * What one unfinished create of a Machine or a Script made, as far as anything proves it
 * (contract/unfinishedCreates.ts), the rule `vmapi-recover-pending` follows:
 * - a machine still under the create's **creating name** was made by that create and handed to
 *   no stack: it is the resource's (two of them: the user decides);
 * - a script whose create's **marker** is there was made by that create: the script of the name
 *   is the resource's, and the marker goes; a marker alone means the create made nothing else;
 * - anything else of the name is a namesake: names are not unique (machines), or a script may be
 *   kept by `retainOnDelete` or be another program's. It is never taken; the report names it,
 *   and the next `up` treats it as the provider always does (an auto-name's namesake stops the
 *   create and is named; a declared name's is let be).
 */
import { creatingName } from "../contract/unfinishedCreates";

/** How resources are found in one account of the API by name: the ids of those that exist. */
export interface ResourceFinder {
  /** The account, as a report line names it (`account "team"`, `provider team`): never a key. */
  readonly account: string;
  machinesNamed(name: string): Promise<string[]>;
  scriptsNamed(name: string): Promise<string[]>;
  /** Removes the scripts named `name` (a create's marker, once its script is accounted for). */
  removeScriptsNamed(name: string): Promise<void>;
}

/** What a create made: adopted (with its id), dropped (nothing proven made), or left to the user. */
export interface MadeByCreate {
  outcome: "adopted" | "dropped" | "left";
  id?: string;
  reason: string;
}

/**
 * What the create of the `kind` resource named `name` (of identity `identity`: what its creating
 * names are made from) made in `finder`'s account; `shownName` is how a report line may call the name.
 */
export async function findMadeBy(
  kind: "Machine" | "Script",
  finder: ResourceFinder,
  name: string,
  identity: string,
  shownName: string,
): Promise<MadeByCreate> {
  const creating = creatingName(name, identity);
  return kind === "Machine"
    ? machineMadeBy(finder, name, creating, shownName)
    : scriptMadeBy(finder, name, creating, shownName);
}

async function machineMadeBy(
  finder: ResourceFinder,
  name: string,
  creating: string,
  shownName: string,
): Promise<MadeByCreate> {
  const ids = await finder.machinesNamed(creating);
  if (ids.length === 1) {
    const reason = `its create made machine ${ids[0]} in ${finder.account} (still under its creating name)`;
    return { outcome: "adopted", id: ids[0], reason };
  }
  if (ids.length > 1) {
    const reason = `${ids.length} machines under its creating name in ${finder.account} (${ids.join(", ")}): resolve it by hand`;
    return { outcome: "left", reason };
  }
  const never = `no machine under its creating name in ${finder.account}: its create made none`;
  return {
    outcome: "dropped",
    reason: never + namesakes("machine", shownName, await finder.machinesNamed(name)),
  };
}

async function scriptMadeBy(
  finder: ResourceFinder,
  name: string,
  creating: string,
  shownName: string,
): Promise<MadeByCreate> {
  const markers = await finder.scriptsNamed(creating);
  const ids = await finder.scriptsNamed(name);
  if (markers.length === 0) {
    const never = `no marker of its create in ${finder.account}: it made no script`;
    return { outcome: "dropped", reason: never + namesakes("script", shownName, ids) };
  }
  if (ids.length > 1) {
    const reason = `${ids.length} scripts named ${shownName} in ${finder.account} (${ids.join(", ")}): resolve it by hand`;
    return { outcome: "left", reason };
  }
  await finder.removeScriptsNamed(creating);
  if (ids.length === 0) {
    return { outcome: "dropped", reason: `its create made only its marker in ${finder.account} (removed)` };
  }
  const reason = `its create made script ${ids[0]} in ${finder.account} (its marker removed)`;
  return { outcome: "adopted", id: ids[0], reason };
}

/** The report's note of namesakes, which are never taken. */
function namesakes(kind: string, shownName: string, ids: readonly string[]): string {
  if (ids.length === 0) return "";
  return (
    `; ${ids.length === 1 ? `${kind} ${ids[0]} has` : `${kind}s ${ids.join(", ")} have`} the name ${shownName}, ` +
    `but nothing proves it is this resource's (names are anyone's): not taken`
  );
}
