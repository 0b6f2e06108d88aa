/**
 * A Script's create that a dying process cannot turn into a stuck stack. Scripts are immutable
 * and their names unique, so a script left by a create whose process died (its answer never
 * reached the stack) would make every later create of that name fail with a conflict. The create
 * therefore first makes the script's **marker** (contract/unfinishedCreates.ts), a disabled script
 * under the creating name that only this resource makes, and removes it as its last step. The
 * next create of the same resource finds the marker (a conflict on making it) and knows that the
 * script of its name, if there is one, was made by that unfinished create:
 * - the declared text and settings: it is taken over (a warning says which and why);
 * - anything else (the program changed since): it never reached a stack, so it is destroyed and
 *   the declared script is made.
 * A script of that name with no marker was handed to a stack or made by someone else: the create
 * stops and names it, as the API's conflict would, with what to do.
 */
import { ConflictError, VmApiError } from "../../client/errors";
import { mayStillAct } from "../../client/lateCreates";
import type { VmApiClient } from "../../client/client";
import type { CreateScriptRequest } from "../../contract/requestSchemas";
import type { Script as ApiScript } from "../../contract/schemas";
import { creatingName, markerText } from "../../contract/unfinishedCreates";
import type { ProgressSink } from "../shared/progress";

/** Where a create's lines go: progress, and warnings for what the user should know. */
export interface CreateSinks {
  progress: ProgressSink;
  warn: ProgressSink;
}

/** A Script's create stopped before it made anything (the message says why and what to do). */
export class ScriptNameTakenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScriptNameTakenError";
  }
}

/**
 * Creates the script of `body`, or takes over the one an unfinished create of the same resource
 * (`identity`: its naming seed) made. Returns the script as the API shows it.
 */
export async function createScript(
  client: VmApiClient,
  body: CreateScriptRequest,
  identity: string,
  sinks: CreateSinks,
): Promise<ApiScript> {
  const name = body.scriptName;
  const markerName = creatingName(name, identity);
  const marker = await client.scripts
    .create(
      { scriptName: markerName, scriptText: markerText(name), isEnabled: false },
      { onProgress: sinks.progress, label: `the marker of script ${name}` },
    )
    .catch((err: unknown) => {
      if (err instanceof ConflictError) return undefined;
      throw err;
    });
  if (marker === undefined) {
    const left = await leftByUnfinishedCreate(client, body, sinks);
    if (left !== undefined) {
      await removeMarker(client, markerName, undefined, sinks);
      return left;
    }
  }
  let created: ApiScript;
  try {
    created = await client.scripts.create(body, { onProgress: sinks.progress });
  } catch (err) {
    // A conflict: a script of this name exists and no unfinished create of this resource made it.
    // Any failure the API may still act on keeps the marker: it proves whose that script is.
    const definitive = err instanceof ConflictError || !(err instanceof VmApiError && mayStillAct(err));
    if (definitive) await removeMarker(client, markerName, marker, sinks);
    throw err instanceof ConflictError ? nameTaken(name, await client.scripts.list({ name })) : err;
  }
  const shown = await client.scripts.get(created.id).catch(() => created);
  await removeMarker(client, markerName, marker, sinks);
  return shown;
}

/**
 * With the marker found: the script of this name that the unfinished create made, when it is the
 * declared one (taken over); one that differs is destroyed. Undefined: make the script now.
 */
async function leftByUnfinishedCreate(
  client: VmApiClient,
  body: CreateScriptRequest,
  sinks: CreateSinks,
): Promise<ApiScript | undefined> {
  const [left] = await client.scripts.list({ name: body.scriptName });
  if (left === undefined) return undefined;
  const why = `was made by an earlier create of this resource that did not finish (the process running it ended before the stack recorded it)`;
  const shown = await client.scripts.get(left.id);
  if (await isDeclared(client, shown, body)) {
    sinks.warn(`script ${left.id} ("${left.name}") ${why}: taking it over instead of creating another`);
    return shown;
  }
  sinks.warn(
    `script ${left.id} ("${left.name}") ${why}, with other text or settings than declared: it never reached a stack, ` +
      `so it is destroyed and the declared script created`,
  );
  await client.scripts.destroy(left.id);
  return undefined;
}

/** True when `script` has the text, settings and attachment `body` declares. */
async function isDeclared(
  client: VmApiClient,
  script: ApiScript,
  body: CreateScriptRequest,
): Promise<boolean> {
  const attached = (script.machines ?? []).map((m) => m.machineId);
  const same =
    script.isEnabled === (body.isEnabled ?? true) &&
    script.runOnce === (body.runOnce ?? false) &&
    script.description === (body.scriptDescription ?? null) &&
    JSON.stringify(attached) === JSON.stringify(body.machineId === undefined ? [] : [body.machineId]);
  return same && (await client.scripts.text(script.id)) === body.scriptText;
}

/** Removes the marker (made now, or found by name); a failure only warns: the script is made. */
async function removeMarker(
  client: VmApiClient,
  markerName: string,
  marker: ApiScript | undefined,
  sinks: CreateSinks,
): Promise<void> {
  try {
    const ids = marker ? [marker.id] : (await client.scripts.list({ name: markerName })).map((s) => s.id);
    for (const id of ids) await client.scripts.destroy(id);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    sinks.warn(
      `the marker script "${markerName}" could not be removed (${why}): the next create of this resource removes it`,
    );
  }
}

/**
 * The refusal for a name taken by someone else's script. It carries no `cause`: the API's message
 * quotes the name, which may be a secret, and only this message is masked (runtime.ts).
 */
function nameTaken(name: string, found: readonly ApiScript[]): ScriptNameTakenError {
  const which = found.map((s) => `${s.id}, created ${s.dtCreated}`).join("; ") || "not visible to this key";
  return new ScriptNameTakenError(
    `script name ${JSON.stringify(name)} is taken (${which}) and not by an unfinished create of this resource: ` +
      `script names are unique, and that script was kept by retainOnDelete, made outside this stack, or by another stack. ` +
      `Nothing was created. Destroy or rename that script if nobody uses it, or give this Script another name; then run pulumi up again.`,
  );
}
