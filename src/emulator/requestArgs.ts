/**
 * The handlers' half of each request: wire input (JSON body, query string) parsed and validated
 * into the typed arguments the services take, with the shared schemas' rules and messages.
 */
import { z } from "zod";
import { DEFAULT_MACHINE_PAGE_SIZE } from "../client/constants";
import {
  CreateScriptRequestSchema,
  DestroyMachineRequestSchema,
  MACHINE_FILTER_FIELDS,
  PagingQuerySchema,
  SetMachineAccessRequestSchema,
  scriptTooLargeMessage,
} from "../client/requests";
import { badRequest, payloadTooLarge } from "./apiError";
import type { AccessArgs, DestroyArgs, ListArgs } from "./machines";
import type { CreateScriptArgs } from "./scripts";
import { parseFilters, parseWith, queryBoolean, queryObject } from "./validate";

/** A query string parsed with `schema` (first value of each name). */
export function parseQuery<S extends z.ZodType>(schema: S, query: URLSearchParams): z.output<S> {
  return parseWith(schema, queryObject(query));
}

/** A required, non-empty id from the query string, e.g. `machineId` of getMachinePublic. */
export function queryId(query: URLSearchParams, name: "machineId" | "scriptId"): string {
  return parseQuery(z.object({ [name]: z.string().min(1) }), query)[name] as string;
}

/** destroyMachine: `releasePublicIp` from the JSON body, else from the query string; default false. */
export function destroyArgs(body: unknown, query: URLSearchParams): DestroyArgs {
  const fromBody = parseWith(DestroyMachineRequestSchema, body ?? {}).releasePublicIp;
  return { releasePublicIp: fromBody ?? queryBoolean(query, "releasePublicIp") ?? false };
}

/** setMachineAccess: a `machineId` repeated in the body must be the path's. */
export function accessArgs(body: unknown, pathMachineId: string): AccessArgs {
  const req = parseWith(SetMachineAccessRequestSchema, body ?? {});
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

/** createScript from a JSON body: over 16 KB is 413 (not 400), checked before the other rules. */
export function createScriptArgs(body: unknown): CreateScriptArgs {
  const text = (body as { scriptText?: unknown } | null)?.scriptText;
  const tooLarge = typeof text === "string" ? scriptTooLargeMessage(text) : null;
  if (tooLarge !== null) throw payloadTooLarge(tooLarge);
  return parseWith(CreateScriptRequestSchema, body ?? {});
}
