/**
 * The handlers' half of each request: wire input (JSON body, query string, multipart upload) parsed and validated
 * into the typed arguments the services take, with the shared schemas' rules and messages.
 */
import { z } from "zod";
import { DEFAULT_MACHINE_PAGE_SIZE, SCRIPT_MAX_BYTES } from "../../contract/constants";
import { MACHINE_FILTER_FIELDS } from "../../contract/listFilters";
import {
  CreateScriptRequestSchema,
  CreateScriptUploadQuerySchema,
  DestroyMachineRequestSchema,
  PagingQuerySchema,
  SetMachineAccessRequestSchema,
  scriptTooLargeMessage,
} from "../../contract/requestSchemas";
import { badRequest, payloadTooLarge } from "../model/apiError";
import type { AccessArgs, DestroyArgs, ListArgs } from "../model/machines";
import type { Upload, UploadedFile } from "./multipart";
import type { CreateScriptArgs } from "../model/scripts";
import { bodyOrEmpty, parseFilters, parseWith, queryBoolean, queryObject, utf8Text } from "./validate";

/** A query string parsed with `schema` (first value of each name). */
export function parseQuery<S extends z.ZodType>(schema: S, query: URLSearchParams): z.output<S> {
  return parseWith(schema, queryObject(query));
}

/** destroyMachine: `releasePublicIp` from the JSON body, else from the query string; default false. */
export function destroyArgs(body: unknown, query: URLSearchParams): DestroyArgs {
  const fromBody = parseWith(DestroyMachineRequestSchema, bodyOrEmpty(body)).releasePublicIp;
  return { releasePublicIp: fromBody ?? queryBoolean(query, "releasePublicIp") ?? false };
}

/** setMachineAccess: a `machineId` repeated in the body must be the path's. */
export function accessArgs(body: unknown, pathMachineId: string): AccessArgs {
  const req = parseWith(SetMachineAccessRequestSchema, bodyOrEmpty(body));
  if (req.machineId !== undefined && req.machineId !== pathMachineId) {
    throw badRequest(`machineId in the body (${req.machineId}) does not match the path (${pathMachineId})`);
  }
  return { userId: req.userId, enableAccess: req.enableAccess };
}

/** getMachines: equality filters plus limit (default and maximum 1000) and skip. */
export function listArgs(query: URLSearchParams): ListArgs {
  const filters = parseFilters(query, MACHINE_FILTER_FIELDS, ["limit", "skip"]);
  const paging = parseWith(PagingQuerySchema, {
    limit: query.get("limit") ?? undefined,
    skip: query.get("skip") ?? undefined,
  });
  return { filters, skip: paging.skip ?? 0, limit: paging.limit ?? DEFAULT_MACHINE_PAGE_SIZE };
}

/**
 * createScript from a JSON body, or from a multipart upload whose parameters are in the query
 * string. Either way, over 16 KB is 413 (not 400), checked before the other rules.
 */
export function createScriptArgs(
  body: unknown,
  upload: Upload | undefined,
  query: URLSearchParams,
): CreateScriptArgs {
  if (upload !== undefined) return uploadedScriptArgs(upload, query);
  // Read only with an upload: with a JSON body, a flag left in the query string would be ignored.
  const misplaced = [...new Set(query.keys())].filter((key) => key in CreateScriptUploadQuerySchema.shape);
  if (misplaced.length > 0) {
    throw badRequest(
      `with a JSON body, send ${misplaced.join(", ")} in the body: the query string carries them only with a multipart upload`,
    );
  }
  const text = (body as { scriptText?: unknown } | null)?.scriptText;
  const tooLarge = typeof text === "string" ? scriptTooLargeMessage(text) : null;
  if (tooLarge !== null) throw payloadTooLarge(tooLarge);
  return parseWith(CreateScriptRequestSchema, bodyOrEmpty(body));
}

/** The uploaded file is the script text; the query's flags are `"true"`/`"false"` strings. */
function uploadedScriptArgs(upload: Upload, query: URLSearchParams): CreateScriptArgs {
  const file = scriptFile(upload);
  const params = queryObject(query);
  if (params.scriptText !== undefined) {
    throw badRequest("send the script either as scriptText or as a file, not both");
  }
  const bytes = file.data.length;
  if (bytes > SCRIPT_MAX_BYTES) {
    throw payloadTooLarge(
      `the uploaded file is ${bytes} bytes; the limit is ${SCRIPT_MAX_BYTES} bytes (16 KB)`,
    );
  }
  const text = utf8Text(file.data);
  if (text === undefined) throw badRequest("the uploaded file is not UTF-8 text");
  if (text === "") throw badRequest("the uploaded file is empty");
  return { ...parseWith(CreateScriptUploadQuerySchema, params), scriptText: text };
}

/** The one part named `file`; text fields are refused, since the parameters belong in the query. */
function scriptFile(upload: Upload): UploadedFile {
  if (upload.fieldNames.length > 0) {
    const names = upload.fieldNames.slice(0, 5).map((n) => JSON.stringify(n.slice(0, 64)));
    throw badRequest(
      `form fields are not read (got ${names.join(", ")}): send scriptName and the other parameters in the query string, and only the script as the part named file`,
    );
  }
  const [file, ...more] = upload.files;
  if (file === undefined)
    throw badRequest("a multipart createScript needs the script as the part named file");
  if (more.length > 0) throw badRequest(`send one file part, not ${upload.files.length}`);
  if (file.field !== "file") {
    throw badRequest(
      `the script must be the part named file (got ${JSON.stringify(file.field.slice(0, 64))})`,
    );
  }
  return file;
}
