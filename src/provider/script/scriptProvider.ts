/**
 * The Script implementation: immutable scripts, so diff replaces on any change; a file is read
 * here, and its content hash is an input, so an edited file is a change even at the same path.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, provesAbsence } from "../../client/core/errors";
import { confirmAbsent } from "../shared/gone";
import {
  CreateScriptRequestSchema,
  scriptTooLargeMessage,
  type CreateScriptRequest,
} from "../../contract/requestSchemas";
import type { Script as ApiScript } from "../../contract/schemas";
import { definedOnly, schemaFailures } from "../shared/checks";
import { changedKeys } from "../shared/diffTable";
import { withAutoName } from "../shared/naming";
import { createScript } from "./scriptCreate";
import { freshListingsFor } from "../account/freshListings";
import { withinTimeout } from "../shared/operationOptions";
import { scriptFromList } from "../account/listSnapshot";
import { proveAccount } from "../shared/references";
import type {
  Call,
  CheckResult,
  EngineProps,
  ResourceImplementation,
} from "../shared/resourceImplementation";
import { UNKNOWN } from "../shared/unknown";
import { SCRIPT_DIFF_TABLE, SCRIPT_INPUT_KEYS, type ScriptInputs, type ScriptOutputs } from "./scriptModel";

export { SCRIPT_DIFF_TABLE } from "./scriptModel";

const WIRE: Record<string, string> = { scriptName: "name", scriptDescription: "description" };

/** The Script implementation's own type. */
export type ScriptImplementation = ResourceImplementation<ScriptInputs, ScriptOutputs>;

/** The Script implementation both doors dispatch to; `check` proves the key with its lookups. */
export const scriptProvider: ScriptImplementation = {
  async check(olds, news, call) {
    await proveAccount(call.account);
    return checkScript(olds, news, call);
  },

  async diff(_id, olds, news, call) {
    // An input left out means "as the API defaults it": only declared inputs can differ.
    const changed = changedKeys(SCRIPT_DIFF_TABLE, olds, news).filter((key) => news[key] !== undefined);
    // An explicit name that stays the same would collide: delete the old script first.
    const sameExplicitName = !call.resource.autoNamed && olds.name === news.name;
    return { changes: changed.length > 0, replaces: changed, deleteBeforeReplace: sameExplicitName };
  },

  async create(inputs, call) {
    const client = call.account.client;
    const text = readText(inputs);
    // The very body `check` validated with the request schema (checkScript).
    const body = definedOnly({ ...requestBody(inputs), scriptText: text }) as CreateScriptRequest;
    const listScripts = () =>
      freshListingsFor(call.account, "scripts", (onSent) => client.scripts.list({}, { onSent })).list();
    const shown = await createScript(client, body, call.resource.identity, { ...call, listScripts });
    return { id: shown.id, outs: scriptOutputs(inputs, shown) };
  },

  async read(id, props, call) {
    try {
      const client = call.account.client;
      // Reads arriving together share one listing (listSnapshot.ts); missing or alone: a show.
      const listed = await call.account.context.snapshots.lookup(
        `${call.account.key} scripts`,
        () => client.scripts.list(),
        id,
      );
      const script = (listed && scriptFromList(listed, props)) ?? (await client.scripts.get(id));
      const outs = scriptOutputs(await importedInputs(client, script, props), script);
      // Inputs without the nulls the API reports (a script without a description): an input is a
      // value or left out, and a null one is no input `check` takes.
      const inputKeys = SCRIPT_INPUT_KEYS.filter((k) => outs[k] !== null);
      return { id, props: outs, inputs: definedOnly(Object.fromEntries(inputKeys.map((k) => [k, outs[k]]))) };
    } catch (err) {
      if (provesAbsence(err)) return {};
      throw err;
    }
  },

  async update() {
    // diff replaces on every change, so the engine never asks for an update.
    throw new Error(
      "Script cannot be updated in place: scripts are immutable (this is a bug in pulumi-vmapi)",
    );
  },

  async delete(id, props, call) {
    const client = call.account.client;
    const destroy = async (signal?: AbortSignal) => {
      try {
        await client.scripts.destroy(id, { signal });
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        await confirmAbsent(() => client.scripts.get(id, { signal }), `script ${id}`, err);
      }
    };
    // A delete cut short keeps the script in the stack; a create is never cut short (see README).
    return withinTimeout(call.timeout, destroy);
  },
};

/**
 * The inputs a script read by id alone has (`pulumi import`, `Script.get`: no stored inputs) that
 * its diff compares: its text and its content's hash, and the machine it is attached to, when
 * one; so a program declaring the same text and machine shows no change, and the program `pulumi
 * import` prints (which needs the text: a script is created from it) previews as it is printed.
 * Stored inputs win.
 */
async function importedInputs(
  client: Call["account"]["client"],
  script: ApiScript,
  props: ScriptOutputs,
): Promise<ScriptOutputs> {
  if (props.contentSha256 !== undefined) return props;
  const machines = script.machines ?? (await client.scripts.get(script.id)).machines ?? [];
  const attached = machines.length === 1 ? { machineId: machines[0].machineId } : {};
  const text = await client.scripts.text(script.id);
  return { scriptText: text, contentSha256: sha256(text), ...attached, ...props };
}

/** `check` without the API: the text (or file) and the fields, with the content's hash. */
function checkScript(olds: ScriptOutputs, news: EngineProps, call: Call): CheckResult<ScriptInputs> {
  const named = withAutoName(olds, news, call);
  const inputs: ScriptInputs = { ...named.inputs };
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const text = scriptContent(inputs, failures);
  if (text !== undefined) inputs.contentSha256 = sha256(text);
  if (text !== undefined && text !== UNKNOWN) {
    const body = definedOnly({ ...requestBody(inputs), scriptText: text });
    failures.push(...schemaFailures(CreateScriptRequestSchema, body, inputs, (f) => WIRE[f] ?? f));
    const tooLarge = scriptTooLargeMessage(text);
    if (tooLarge)
      failures.push({ property: inputs.scriptFile ? "scriptFile" : "scriptText", reason: tooLarge });
  }
  return { inputs, failures, autoNamed: named.autoNamed };
}

/** The create request's fields (all but the text) from the inputs. */
function requestBody(inputs: ScriptInputs): Partial<CreateScriptRequest> {
  return {
    scriptName: inputs.name,
    scriptDescription: inputs.description,
    isEnabled: inputs.isEnabled,
    runOnce: inputs.runOnce,
    machineId: inputs.machineId,
  };
}

/** The text to check: declared, or read from the file; failures name the property. */
function scriptContent(inputs: ScriptInputs, failures: pulumi.dynamic.CheckFailure[]): string | undefined {
  const { scriptText, scriptFile } = inputs;
  if (scriptText === UNKNOWN || scriptFile === UNKNOWN) return UNKNOWN;
  if ((scriptText === undefined) === (scriptFile === undefined)) {
    failures.push({ property: "scriptText", reason: "give exactly one of scriptText or scriptFile" });
    return undefined;
  }
  if (typeof scriptText === "string") return scriptText;
  try {
    return fs.readFileSync(path.resolve(String(scriptFile)), "utf8");
  } catch (err) {
    failures.push({
      property: "scriptFile",
      reason: `scriptFile ${String(scriptFile)} cannot be read: ${(err as Error).message}`,
    });
    return undefined;
  }
}

function readText(inputs: ScriptInputs): string {
  if (typeof inputs.scriptText === "string") return inputs.scriptText;
  return fs.readFileSync(path.resolve(String(inputs.scriptFile)), "utf8");
}

function sha256(text: string): string {
  return text === UNKNOWN ? UNKNOWN : crypto.createHash("sha256").update(text, "utf8").digest("hex");
}

function scriptOutputs(declared: ScriptInputs | ScriptOutputs, script: ApiScript): ScriptOutputs {
  return {
    ...declared,
    scriptId: script.id,
    name: script.name,
    description: script.description,
    isEnabled: script.isEnabled,
    runOnce: script.runOnce,
    ownerType: script.ownerType,
    ownerId: script.ownerId,
    dtCreated: script.dtCreated,
    machines: script.machines ?? [],
  };
}
