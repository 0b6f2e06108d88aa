/**
 * What one HTTP operation is on the wire, as data: its method and path template, the schemas of
 * its path, query string and body, its success answer, and the refusals it may answer. The API's
 * table (operations.ts) and the emulator's control table are lists of these; the emulator routes
 * by them, the client sends by them, and the OpenAPI document (api/openapi.json) is generated
 * from them, so a route is written once.
 */
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "./constants";

/** A status the API refuses with, each with the `error.code` values it carries. */
export const ERROR_STATUSES = {
  400: ["validation_failed", "malformed_json"],
  401: ["invalid_api_key"],
  403: ["forbidden"],
  404: ["not_found", "route_not_found"],
  405: ["method_not_allowed"],
  408: ["validation_failed"],
  409: ["conflict"],
  413: ["payload_too_large"],
  415: ["unsupported_media_type"],
  429: ["rate_limited"],
  431: ["payload_too_large"],
} as const satisfies Record<number, readonly ErrorCode[]>;
/** A refusal status of the API (5xx are server failures, apart). */
export type ErrorStatus = keyof typeof ERROR_STATUSES;
/** The codes of a server failure (any 5xx; the emulator answers them only as injected faults). */
export const SERVER_ERROR_CODES = ["internal_error", "service_unavailable"] as const satisfies ErrorCode[];

// Every code belongs to some status, so a code added to ERROR_CODES must be placed here too.
type Placed = (typeof ERROR_STATUSES)[ErrorStatus][number] | (typeof SERVER_ERROR_CODES)[number];
const everyCodePlaced: readonly Placed[] = ERROR_CODES;
void everyCodePlaced;

/**
 * The error body of `status` as the emulator sends it (docs/api.md, "Errors"): nested, with
 * `error.status` equal to the HTTP status and a `code` of the status's. Without a status: any
 * error, as a scripted fault answers it (any status from 400 to 599, any code).
 */
export function errorBodySchema(status?: ErrorStatus | "5XX") {
  const codes: readonly ErrorCode[] =
    status === undefined ? ERROR_CODES : status === "5XX" ? SERVER_ERROR_CODES : ERROR_STATUSES[status];
  const statusSchema =
    status === undefined
      ? z.number().int().min(400).max(599)
      : status === "5XX"
        ? z.number().int().min(500).max(599)
        : z.literal(status);
  return z.object({
    error: z.object({
      name: z.string(),
      status: statusSchema,
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
      message: z.string().min(1),
    }),
  });
}

/** The body of an operation: its schema, and whether a request may go without it. */
export interface OperationBody {
  schema: z.ZodType;
  /** False: no body at all is valid too (destroyMachine, updateMachinePublic). */
  required: boolean;
}

/**
 * A multipart/form-data alternative to the JSON body: one file part, the other parameters in the
 * query string (createScript, as the service's own clients upload a script file).
 */
export interface OperationUpload {
  /** The name of the one file part. */
  part: string;
  /** What the part holds, for readers of the document. */
  description: string;
}

/**
 * Where an answer's value goes next (an OpenAPI link): e.g. the id of a created machine into the
 * `machineId` of its show. Fuzzers follow them to chain a create to its reads.
 */
export interface OperationLink {
  /** The operation the value flows to. */
  operationId: string;
  /** Its parameters, each a runtime expression such as `$response.body#/id`. */
  parameters: Readonly<Record<string, string>>;
}

/** One HTTP operation, as the router, the client and the document read it. */
export interface Operation {
  /** The operation's id in the document (`operationId`) and in the tables. */
  id: string;
  method: "GET" | "POST" | "DELETE";
  /** Path template, e.g. `/machines/{machineId}/start`; parameters are one segment each. */
  path: string;
  /** The group the document lists it under. */
  tag: string;
  /** One line: what it does. */
  summary: string;
  /** More, where the wire has something to know (markdown). */
  description?: string;
  /** The query string's parameters, each a property of the object (the wire carries strings). */
  query?: z.ZodObject;
  body?: OperationBody;
  upload?: OperationUpload;
  /** The success answer: 200 with a JSON body of `schema`, or 204 with none. */
  answer: { status: 200; schema: z.ZodType; description: string } | { status: 204; description: string };
  /** Where the success answer's values flow, by link name. */
  links?: Readonly<Record<string, OperationLink>>;
  /** The refusals beyond those every operation of its table may answer. */
  refusals: readonly ErrorStatus[];
  /** Sent without `X-Api-Key` (the emulator's control endpoints). */
  open?: boolean;
}

/** The names of the parameters of a path template, in order. */
export function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
}

/**
 * A path of `operation` with its parameters filled in, each percent-encoded, so an id can never
 * change the route it travels in.
 */
export function operationPath(operation: Operation, params: Readonly<Record<string, string>> = {}): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${operation.id}: path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}
