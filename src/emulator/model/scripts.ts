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
import type { Stored, ScriptRecord, UserRecord } from "../state/records";
import type { Store } from "../state/store";
import { listed, type Filters } from "./filters";
import { scriptView } from "./views";

function visibleScript(store: Store, user: Stored<UserRecord>, id: string): Stored<ScriptRecord> {
  const script = store.scripts.find((s) => s.id === id && seesScript(user, s));
  if (script === undefined) throw notFound(`scriptId ${id} not found`);
  return script;
}

/** A script to create, parsed from a JSON body or from a multipart upload. */
export type CreateScriptArgs = z.output<typeof CreateScriptRequestSchema>;

/** createScript by an account admin: 409 on a duplicate name, optional attachment to a machine. */
export function createScript(store: Store, admin: Stored<UserRecord>, args: CreateScriptArgs): Script {
  const owner = scriptOwnerOf(admin);
  if (store.scripts.some((s) => s.ownerId === owner.ownerId && s.name === args.scriptName)) {
    throw conflict(`a script named ${args.scriptName} already exists for this ${owner.ownerType}`);
  }
  const machine =
    args.machineId !== undefined
      ? machineFor(store, asCaller(admin), args.machineId, "attachScript")
      : undefined;
  const script = store.scripts.add({
    id: store.newId("sc"),
    ...owner,
    name: args.scriptName,
    description: args.scriptDescription ?? null,
    dtCreated: store.now(),
    isEnabled: args.isEnabled ?? true,
    runOnce: args.runOnce ?? false,
    text: args.scriptText,
    runs: {},
  });
  if (machine !== undefined) store.machines.change(machine, (m) => (m.scriptId = script.id));
  return scriptView(script);
}

/**
 * scripts/{id}/destroy: removes the script and sets scriptId null on every machine that had it,
 * destroyed ones included, each advanced to now first: a boot that happened before the destroy ran it.
 */
export function destroyScript(store: Store, admin: Stored<UserRecord>, id: string): void {
  const script = visibleScript(store, admin, id);
  for (const machine of store.machines.all()) {
    if (machine.scriptId === id) store.machines.change(machine, (m) => (m.scriptId = null));
  }
  store.scripts.remove(script);
}

/** getScripts: `user`'s (or their team's) scripts, filtered. */
export function listScripts(store: Store, user: Stored<UserRecord>, filters: Filters): Script[] {
  return listed(
    store.scripts.all(),
    (s) => seesScript(user, s),
    (s) => scriptView(s),
    filters,
  );
}

/** getScript: the script with the live machines it is attached to. */
export function showScript(store: Store, user: Stored<UserRecord>, scriptId: string): Script {
  const script = visibleScript(store, user, scriptId);
  return scriptView(
    script,
    store.machines.alive().filter((m) => m.scriptId === script.id),
  );
}

/** getScriptText: the text as one JSON string. */
export function scriptText(store: Store, user: Stored<UserRecord>, scriptId: string): string {
  return visibleScript(store, user, scriptId).text;
}
