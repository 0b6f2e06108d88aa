/**
 * The Script resource as data: its inputs and outputs, typed from the create request and the
 * wire schema, its diff table, and the key lists its class registers (script.ts). Type imports
 * and plain lists only, so the class loads nothing of the provider.
 */
import type { CreateScriptRequest } from "../../contract/requestSchemas";
import type { Script as ApiScript } from "../../contract/schemas";
import type { DiffTable } from "../shared/diffTable";
import type { Assert, Props, Same } from "../shared/resourceImplementation";

/** Every input replaces: the API cannot change a script. */
export const SCRIPT_DIFF_TABLE = {
  name: "replace",
  contentSha256: "replace",
  description: "replace",
  isEnabled: "replace",
  runOnce: "replace",
  machineId: "replace",
} as const satisfies DiffTable<string>;

/**
 * A Script's inputs: the create request's fields under their Pulumi names (`name` is the wire's
 * `scriptName`, `description` its `scriptDescription`), the file to read instead of the text, and
 * the content's hash that `check` adds.
 */
type ScriptInputFields = Pick<CreateScriptRequest, "scriptText" | "isEnabled" | "runOnce" | "machineId"> & {
  name: CreateScriptRequest["scriptName"];
  description: CreateScriptRequest["scriptDescription"];
  scriptFile: string;
  contentSha256: string;
};

/** The inputs a Script's provider receives (checked by its `check`). */
export type ScriptInputs = Props<ScriptInputFields>;

/** The outputs the API reports, named as the resource names them (`scriptId` is the wire's `id`). */
type ReportedFields = Pick<
  ApiScript,
  "name" | "description" | "isEnabled" | "runOnce" | "ownerType" | "ownerId" | "dtCreated"
> & { scriptId: ApiScript["id"]; machines: NonNullable<ApiScript["machines"]> };

/** The outputs a Script's provider stores: the declared inputs overlaid with what the API reports. */
export type ScriptOutputs = Props<Omit<ScriptInputFields, keyof ReportedFields> & ReportedFields>;

/** Every input key of a Script, the diff table's and the two ways to give the text. */
export const SCRIPT_INPUT_KEYS: readonly (keyof ScriptInputFields)[] = [
  ...(Object.keys(SCRIPT_DIFF_TABLE) as (keyof typeof SCRIPT_DIFF_TABLE)[]),
  "scriptText",
  "scriptFile",
];

/** Outputs a Script has besides its inputs. */
export const SCRIPT_OUTPUT_KEYS = ["scriptId", "ownerType", "ownerId", "dtCreated", "machines"] as const;

/*
 * Compile-time checks that the lists above are the typed fields: every input key once, and the
 * reported outputs that are not inputs.
 */
type _InputKeysAreTheFields = Assert<
  Same<keyof typeof SCRIPT_DIFF_TABLE | "scriptText" | "scriptFile", keyof ScriptInputFields>
>;
type _OutputKeysAreTheReported = Assert<
  Same<(typeof SCRIPT_OUTPUT_KEYS)[number], Exclude<keyof ReportedFields, keyof ScriptInputFields>>
>;
