/**
 * A Script's create that a dying process cannot turn into a stuck stack or a stray script.
 * Scripts are immutable and their names unique, so a script left by a create whose process died
 * (its answer never reached the stack) would make every later create of that name fail with a
 * conflict. The create therefore first makes the script's **marker** (contract/unfinishedCreates.ts),
 * a disabled script under the creating name that only this resource makes, and removes it as its
 * last step. The next create of the same resource lists the account's scripts (a listing shared
 * by the creates that start together) and finds the marker, so the script of the marker's name,
 * if there is one, was made by that unfinished create:
 * - the declared name, text and settings: it is taken over (a warning says which and why);
 * - anything else (the program changed since, or a plugin drew another auto-name): it never
 *   reached a stack, so it is destroyed and the declared script is made.
 * A script of the declared name with no marker was handed to a stack or made by someone else:
 * the create stops and names it, as the API's conflict would, with what to do.
 */
import { ConflictError, VmApiError } from "../../client/core/errors";
import { mayStillAct } from "../../client/core/createWindow";
import type { VmApiClient } from "../../client/client";
import type { CreateScriptRequest } from "../../contract/requestSchemas";
import type { Script as ApiScript } from "../../contract/schemas";
import {
  creatingName,
  leftByUnfinishedCreates,
  markerText,
  nameBeforeCreating,
} from "../../contract/unfinishedCreates";
import type { ProgressSink } from "../account/progress";

/** What a create is given besides its request: where its lines go, and the account's scripts. */
export interface ScriptCreateContext {
  progress: ProgressSink;
  warn: ProgressSink;
  /** Every script of the account, from a listing sent after the create began (freshListings.ts). */
  listScripts: () => Promise<ApiScript[]>;
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
 * (`identity`: `call.resource.identity`) made. Returns the script as the API shows it.
 */
export async function createScript(
  client: VmApiClient,
  body: CreateScriptRequest,
  identity: string,
  ctx: ScriptCreateContext,
): Promise<ApiScript> {
  const name = body.scriptName;
  const markerName = creatingName(name, identity);
  const scripts = await ctx.listScripts();
  const markers = leftByUnfinishedCreates(scripts, identity);
  for (const marker of markers) {
    const left = scripts.find((s) => s.name === nameBeforeCreating(marker.name, identity));
    if (left === undefined) continue;
    if (left.name === name && (await isDeclared(client, left, body))) {
      ctx.warn(
        `script ${left.id} ("${left.name}") ${UNFINISHED}: taking it over instead of creating another`,
      );
      await removeMarkers(client, markers, ctx);
      return client.scripts.get(left.id);
    }
    ctx.warn(
      `script ${left.id} ("${left.name}") ${UNFINISHED}, and is not the declared one: it never reached a stack, ` +
        `so it is destroyed and the declared script created`,
    );
    await client.scripts.destroy(left.id);
  }
  const marker =
    markers.find((m) => m.name === markerName) ??
    (await client.scripts.create(
      { scriptName: markerName, scriptText: markerText(name), isEnabled: false },
      { onProgress: ctx.progress, label: `the marker of script ${name}` },
    ));
  const own = [marker, ...markers.filter((m) => m.id !== marker.id)];
  let created: ApiScript;
  try {
    created = await client.scripts.create(body, { onProgress: ctx.progress });
  } catch (err) {
    // A conflict: a script of this name exists and no unfinished create of this resource made it.
    // Any failure the API may still act on keeps the marker: it proves whose that script is.
    const definitive = err instanceof ConflictError || !(err instanceof VmApiError && mayStillAct(err));
    if (definitive) await removeMarkers(client, own, ctx);
    throw err instanceof ConflictError ? nameTaken(name, await client.scripts.list({ name })) : err;
  }
  const shown = await client.scripts.get(created.id).catch(() => created);
  await removeMarkers(client, own, ctx);
  return shown;
}

const UNFINISHED =
  "was made by an earlier create of this resource that did not finish (the process running it ended before the stack recorded it)";

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

/** Removes the markers; a failure only warns (the script is made), and the next create removes them. */
async function removeMarkers(
  client: VmApiClient,
  markers: readonly ApiScript[],
  ctx: ScriptCreateContext,
): Promise<void> {
  for (const marker of markers) {
    try {
      await client.scripts.destroy(marker.id);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      ctx.warn(
        `the marker script "${marker.name}" could not be removed (${why}): the next create of this resource removes it`,
      );
    }
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
