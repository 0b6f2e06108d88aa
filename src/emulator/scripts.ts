/**
 * Startup scripts. On a team account a script belongs to the team, otherwise to the user; names
 * are unique per owner. Scripts are immutable; destroying one detaches it from its machines.
 */
import { z } from "zod";
import { CreateScriptRequestSchema, SCRIPT_FILTER_FIELDS, scriptTooLargeMessage } from "../client/requests";
import type { Script } from "../client/schemas";
import { conflict, notFound, payloadTooLarge } from "./apiError";
import { accountAdmin, accountUser, inScope, type Caller } from "./auth";
import { machineFor } from "./permissions";
import type { ScriptRecord, UserRecord } from "./records";
import type { Store } from "./store";
import { matchesFilters, parseFilters, parseWith, queryObject } from "./validate";
import { scriptView } from "./views";

/** The owner a new script of `user` gets. */
function ownerOf(user: UserRecord): { ownerType: "user" | "team"; ownerId: string } {
  return user.teamId !== null
    ? { ownerType: "team", ownerId: user.teamId }
    : { ownerType: "user", ownerId: user.id };
}

function scriptInScope(user: UserRecord, s: ScriptRecord): boolean {
  return inScope(user, s.ownerType === "team" ? { teamId: s.ownerId } : { teamId: null, userId: s.ownerId });
}

function visibleScript(store: Store, user: UserRecord, id: string): ScriptRecord {
  const script = store.data.scripts.find((s) => s.id === id && scriptInScope(user, s));
  if (script === undefined) throw notFound(`scriptId ${id} not found`);
  return script;
}

/** createScript: 413 over 16 KB, 409 on a duplicate name, optional attachment to a machine. */
export function createScript(store: Store, caller: Caller, body: unknown): Script {
  const admin = accountAdmin(caller, "create scripts");
  const text = (body as { scriptText?: unknown } | null)?.scriptText;
  const tooLarge = typeof text === "string" ? scriptTooLargeMessage(text) : null;
  if (tooLarge !== null) throw payloadTooLarge(tooLarge);
  const req = parseWith(CreateScriptRequestSchema, body ?? {});
  const owner = ownerOf(admin);
  if (store.data.scripts.some((s) => s.ownerId === owner.ownerId && s.name === req.scriptName)) {
    throw conflict(`a script named ${req.scriptName} already exists for this ${owner.ownerType}`);
  }
  const machine =
    req.machineId !== undefined ? machineFor(store, caller, req.machineId, "attachScript") : undefined;
  const script: ScriptRecord = {
    id: store.newId("sc"),
    ...owner,
    name: req.scriptName,
    description: req.scriptDescription ?? null,
    dtCreated: store.now(),
    isEnabled: req.isEnabled ?? true,
    runOnce: req.runOnce ?? false,
    text: req.scriptText,
    runs: {},
  };
  store.data.scripts.push(script);
  if (machine !== undefined) machine.scriptId = script.id;
  store.dirty = true;
  return scriptView(script);
}

/** scripts/{id}/destroy: removes the script and sets scriptId null on every machine that had it. */
export function destroyScript(store: Store, caller: Caller, id: string): void {
  const admin = accountAdmin(caller, "destroy scripts");
  const script = visibleScript(store, admin, id);
  store.data.scripts = store.data.scripts.filter((s) => s !== script);
  for (const machine of store.data.machines) if (machine.scriptId === id) machine.scriptId = null;
  store.dirty = true;
}

/** getScripts: the caller's (or team's) scripts, filtered. */
export function listScripts(store: Store, caller: Caller, query: URLSearchParams): Script[] {
  const user = accountUser(caller, "list scripts");
  const filters = parseFilters(query, SCRIPT_FILTER_FIELDS);
  return store.data.scripts
    .filter((s) => scriptInScope(user, s))
    .map((s) => scriptView(s))
    .filter((view) => matchesFilters(view, filters));
}

const ScriptIdQuerySchema = z.object({ scriptId: z.string().min(1) });

/** getScript: the script with the live machines it is attached to. */
export function showScript(store: Store, caller: Caller, query: URLSearchParams): Script {
  const user = accountUser(caller, "show scripts");
  const script = visibleScript(store, user, parseWith(ScriptIdQuerySchema, queryObject(query)).scriptId);
  return scriptView(
    script,
    store.liveMachines().filter((m) => m.scriptId === script.id),
  );
}

/** getScriptText: the text as one JSON string. */
export function scriptText(store: Store, caller: Caller, query: URLSearchParams): string {
  const user = accountUser(caller, "read script text");
  return visibleScript(store, user, parseWith(ScriptIdQuerySchema, queryObject(query)).scriptId).text;
}
