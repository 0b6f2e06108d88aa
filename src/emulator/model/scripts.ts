/**
 * Startup scripts. On a team account a script belongs to the team, otherwise to the user; names
 * are unique per owner. Scripts are immutable; destroying one detaches it from its machines.
 */
import type { z } from "zod";
import type { CreateScriptRequestSchema } from "../../contract/requestSchemas";
import type { Script } from "../../contract/schemas";
import { conflict, notFound } from "./apiError";
import { asCaller } from "./auth";
import { scriptOwnerOf, seesScript } from "./scope";
import { machineFor } from "./permissions";
import type { ScriptRecord, UserRecord } from "../state/records";
import type { Store } from "../state/store";
import { matchesFilters, type Filters } from "./filters";
import { scriptView } from "./views";

function visibleScript(store: Store, user: UserRecord, id: string): ScriptRecord {
  const script = store.data.scripts.find((s) => s.id === id && seesScript(user, s));
  if (script === undefined) throw notFound(`scriptId ${id} not found`);
  return script;
}

/** A script to create, parsed from a JSON body or from a multipart upload. */
export type CreateScriptArgs = z.output<typeof CreateScriptRequestSchema>;

/** createScript by an account admin: 409 on a duplicate name, optional attachment to a machine. */
export function createScript(store: Store, admin: UserRecord, args: CreateScriptArgs): Script {
  const owner = scriptOwnerOf(admin);
  if (store.data.scripts.some((s) => s.ownerId === owner.ownerId && s.name === args.scriptName)) {
    throw conflict(`a script named ${args.scriptName} already exists for this ${owner.ownerType}`);
  }
  const machine =
    args.machineId !== undefined
      ? machineFor(store, asCaller(admin), args.machineId, "attachScript")
      : undefined;
  const script: ScriptRecord = {
    id: store.newId("sc"),
    ...owner,
    name: args.scriptName,
    description: args.scriptDescription ?? null,
    dtCreated: store.now(),
    isEnabled: args.isEnabled ?? true,
    runOnce: args.runOnce ?? false,
    text: args.scriptText,
    runs: {},
  };
  store.data.scripts.push(script);
  if (machine !== undefined) machine.scriptId = script.id;
  store.dirty = true;
  return scriptView(script);
}

/** scripts/{id}/destroy: removes the script and sets scriptId null on every machine that had it. */
export function destroyScript(store: Store, admin: UserRecord, id: string): void {
  const script = visibleScript(store, admin, id);
  store.data.scripts = store.data.scripts.filter((s) => s !== script);
  for (const machine of store.data.machines) if (machine.scriptId === id) machine.scriptId = null;
  store.dirty = true;
}

/** getScripts: `user`'s (or their team's) scripts, filtered. */
export function listScripts(store: Store, user: UserRecord, filters: Filters): Script[] {
  return store.data.scripts
    .filter((s) => seesScript(user, s))
    .map((s) => scriptView(s))
    .filter((view) => matchesFilters(view, filters));
}

/** getScript: the script with the live machines it is attached to. */
export function showScript(store: Store, user: UserRecord, scriptId: string): Script {
  const script = visibleScript(store, user, scriptId);
  return scriptView(
    script,
    store.liveMachines().filter((m) => m.scriptId === script.id),
  );
}

/** getScriptText: the text as one JSON string. */
export function scriptText(store: Store, user: UserRecord, scriptId: string): string {
  return visibleScript(store, user, scriptId).text;
}
