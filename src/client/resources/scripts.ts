/**
 * Startup scripts. `create` reads `scriptFile` on the client side and sends `scriptText`; the
 * 16 KB limit is checked before anything is sent. Script names are unique per owner, which makes
 * a repeated create safe: a 409 after a lost answer names the script the first attempt may have
 * made, and it is taken when its text and flags are ours.
 */
import { promises as fs } from "node:fs";
import type { z } from "zod";
import { SCRIPT_MAX_BYTES } from "../../contract/constants";
import { ConflictError, provesAbsence, ValidationError } from "../core/errors";
import type { HttpClient, RequestOptions } from "../core/http";
import { notify } from "../core/notify";
import { filtersToQuery } from "../core/filterQuery";
import { SCRIPT_FILTER_FIELDS, type ScriptFilters } from "../../contract/listFilters";
import { OPERATIONS } from "../../contract/operations";
import {
  scriptTooLargeMessage,
  type CreateScriptRequest,
  type CreateScriptRequestSchema,
} from "../../contract/requestSchemas";
import type { Script } from "../../contract/schemas";
import { pathWithId, requireId, validateInput } from "../core/validate";
import { createWaiting } from "../core/createWindow";
import { DEFAULT_CREATE_TIMEOUT_MS } from "../core/settings";

/** Input of `scripts.create`: exactly one of `scriptText` and `scriptFile`. */
export type CreateScriptInput = Omit<CreateScriptRequest, "scriptText"> &
  ({ scriptText: string; scriptFile?: undefined } | { scriptFile: string; scriptText?: undefined });

/** Options of `scripts.create`. */
export interface CreateScriptOptions extends RequestOptions {
  /** Told, in a sentence, that the create is still waiting for its answer, or took a script a lost attempt made. */
  onProgress?: (message: string) => void;
  /** How those sentences name the script: `script <scriptName>` unless given. */
  label?: string;
}

const ops = OPERATIONS;

/** The script endpoints of the API. */
export class Scripts {
  constructor(
    private readonly http: HttpClient,
    /** See `ClientSettingsInput.createTimeoutMs`. */
    private readonly createTimeoutMs: number = DEFAULT_CREATE_TIMEOUT_MS,
  ) {}

  /**
   * Uploads a script. Its answer is waited for up to `createTimeoutMs`. After a failure where the
   * server may have acted, the request is sent again: script names are unique per owner, so a
   * late first attempt can only meet a 409, never make a second script, and a 409 on the next
   * attempt means a script of that name exists. It is returned only if it is ours in content
   * (same text and flags): a namesake that existed before keeps its `ConflictError`.
   */
  async create(input: CreateScriptInput, options: CreateScriptOptions = {}): Promise<Script> {
    const { scriptFile, ...rest } = input;
    const scriptText = await resolveScriptText(input.scriptText, scriptFile);
    const body = validateInput(ops.createScript.body.schema, { ...rest, scriptText }, "create script");
    const say = (message: string) => notify(options.onProgress, message);
    const what = options.label ?? `script ${body.scriptName}`;
    return this.http.post(ops.createScript.path, body, {
      schema: ops.createScript.answer.schema,
      idempotent: false,
      signal: options.signal,
      ...createWaiting(what, this.createTimeoutMs, say),
      afterAmbiguous: async (error) => {
        if (!(error instanceof ConflictError)) return undefined;
        const found = await this.findSame(body, options);
        if (found === undefined) return undefined;
        say(`the answer to the create of ${what} was lost, and it made script ${found.id}: taking it`);
        return { value: found };
      },
    });
  }

  /** One script with the machines it is attached to (never its text). */
  async get(scriptId: string, options?: RequestOptions): Promise<Script> {
    const { path, answer } = ops.getScript;
    return this.http.get(path, { scriptId: requireId(scriptId, "scriptId") }, answer.schema, options);
  }

  /** Scripts of the user or team matching the equality `filters`. */
  async list(filters: ScriptFilters = {}, options?: RequestOptions): Promise<Script[]> {
    const { path, answer } = ops.getScripts;
    return this.http.get(path, filtersToQuery(filters, SCRIPT_FILTER_FIELDS), answer.schema, options);
  }

  /** The script's text. */
  async text(scriptId: string, options?: RequestOptions): Promise<string> {
    const { path, answer } = ops.getScriptText;
    return this.http.get(path, { scriptId: requireId(scriptId, "scriptId") }, answer.schema, options);
  }

  /** Destroys a script, detaching it from every machine. A 404 after a lost answer counts as done. */
  async destroy(scriptId: string, options: RequestOptions = {}): Promise<void> {
    return this.http.post(pathWithId(ops.destroyScript, "scriptId", scriptId), undefined, {
      idempotent: true,
      signal: options.signal,
      afterAmbiguous: async (error) => (provesAbsence(error) ? { value: undefined } : undefined),
    });
  }

  /** The script named like `body` if it has the same text and flags, else undefined. */
  private async findSame(body: CreateScriptBody, options: RequestOptions): Promise<Script | undefined> {
    const [script] = await this.list({ name: body.scriptName }, options);
    if (script === undefined) return undefined;
    const sameFlags =
      script.isEnabled === (body.isEnabled ?? true) &&
      script.runOnce === (body.runOnce ?? false) &&
      (body.scriptDescription === undefined || script.description === body.scriptDescription);
    if (!sameFlags) return undefined;
    return (await this.text(script.id, options)) === body.scriptText ? script : undefined;
  }
}

type CreateScriptBody = z.output<typeof CreateScriptRequestSchema>;

/**
 * The text to send: `scriptText`, or the content of `scriptFile`. The file's size is checked
 * before it is read, so an oversized file is refused with its size and never loaded.
 */
export async function resolveScriptText(
  scriptText: string | undefined,
  scriptFile: string | undefined,
): Promise<string> {
  if (scriptText !== undefined && scriptFile !== undefined) {
    throw new ValidationError("create script: give scriptText or scriptFile, not both");
  }
  if (scriptFile === undefined) {
    if (scriptText === undefined)
      throw new ValidationError("create script: scriptText or scriptFile is required");
    return checkSize(scriptText, "scriptText");
  }
  if (typeof scriptFile !== "string" || scriptFile === "") {
    throw new ValidationError("create script: scriptFile must be a file path");
  }
  let size: number;
  try {
    size = (await fs.stat(scriptFile)).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ValidationError(`create script: scriptFile ${scriptFile} cannot be read (${code})`);
  }
  if (size > SCRIPT_MAX_BYTES) {
    throw new ValidationError(
      `create script: scriptFile ${scriptFile} is ${size} bytes; the limit is ${SCRIPT_MAX_BYTES} bytes (16 KB)`,
    );
  }
  return checkSize(await fs.readFile(scriptFile, "utf8"), `scriptFile ${scriptFile}`);
}

function checkSize(text: string, what: string): string {
  const tooLarge = typeof text === "string" ? scriptTooLargeMessage(text) : null;
  if (tooLarge) throw new ValidationError(`create script: ${tooLarge.replace(/^scriptText/, what)}`);
  return text;
}
