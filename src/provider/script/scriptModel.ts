/**
 * The Script resource as data: its inputs and outputs, typed from the create request and the
 * wire schema, and its diff table and key lists as its declaration (scriptResource.ts) has them.
 */
import type { CreateScriptRequest } from "../../contract/requestSchemas";
import type { Script as ApiScript } from "../../contract/schemas";
import type { Assert, Props, Same } from "../shared/resourceImplementation";
import { scriptResource } from "./scriptResource";

/** Every input replaces: the API cannot change a script. */
export const SCRIPT_DIFF_TABLE = scriptResource.changes;

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

/** Every input key of a Script: the diff table's and the two ways to give the text. */
export const SCRIPT_INPUT_KEYS = scriptResource.inputNames as readonly (keyof ScriptInputFields)[];

type DeclaredInput =
  keyof typeof scriptResource.inputs.shape | keyof NonNullable<typeof scriptResource.computed>["shape"];
type DeclaredOutput = keyof typeof scriptResource.outputs.shape;

/*
 * Compile-time checks that the declared fields are the typed ones: every input once (the content's
 * hash a computed row), and the reported outputs that are not inputs.
 */
type _InputKeysAreTheFields = Assert<Same<DeclaredInput, keyof ScriptInputFields>>;
type _OutputKeysAreTheReported = Assert<
  Same<
    Exclude<DeclaredOutput, keyof ScriptInputFields>,
    Exclude<keyof ReportedFields, keyof ScriptInputFields>
  >
>;
