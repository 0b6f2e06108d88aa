/**
 * Turns a failed HTTP exchange into the error hierarchy of `errors.ts`. Pure functions over plain
 * data (status, body text, a transport error's code), so every error shape of docs/api.md
 * ("Errors") is unit-tested without a server.
 */
import { FlatErrorBodySchema, NestedErrorBodySchema } from "../../contract/schemas";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  VmApiError,
  type VmApiErrorInit,
} from "./errors";

/** The request a failure belongs to: method and path only, never headers. */
export interface RequestLabel {
  method: string;
  path: string;
}

/** A non-2xx response, reduced to what mapping needs. */
export interface FailedResponse {
  status: number;
  /** Raw body text; may be empty or not JSON. */
  body: string;
  /** Milliseconds from the `retry-after-ms` or `Retry-After` header, already parsed. */
  retryAfterMs?: number;
}

/** The server's words, from either body shape (docs/api.md, "Errors"). */
interface ErrorBodyFacts {
  message?: string;
  code?: string;
  /** `error.status` or the flat `status`; may differ from the HTTP status (the real service used 400). */
  status?: number;
}

const NOT_FOUND_MESSAGE = /\bnot found\b/i;
const INVALID_KEY_MESSAGE = /\binvalid api (token|key)\b/i;
const MAX_MESSAGE_CHARS = 500;

/** Reads the nested `{error: {...}}` or the flat `{status, message}` body; anything else gives {}. */
export function readErrorBody(body: string): ErrorBodyFacts {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return {};
  }
  const nested = NestedErrorBodySchema.safeParse(json);
  if (nested.success) return nested.data.error;
  const flat = FlatErrorBodySchema.safeParse(json);
  return flat.success ? flat.data : {};
}

/**
 * The status the server meant. The real service answered some failures with HTTP 400 and the true
 * status (or only a message) in the body: not-found as `error.status == 404` or a "not found"
 * message, and a refused key as a flat "Invalid API token".
 */
export function effectiveStatus(httpStatus: number, facts: ErrorBodyFacts): number {
  if (httpStatus !== 400) return httpStatus;
  if (facts.status !== undefined && facts.status >= 400 && facts.status < 500) {
    if (facts.status !== 400) return facts.status;
  }
  if (facts.code === "not_found" || NOT_FOUND_MESSAGE.test(facts.message ?? "")) return 404;
  if (facts.code === "invalid_api_key" || INVALID_KEY_MESSAGE.test(facts.message ?? "")) return 401;
  return 400;
}

/**
 * The class of each status the server means, but 404 (which says what proved it); any other 5xx
 * is a `ServerError`, anything else a plain `VmApiError`.
 */
const ERROR_CLASSES: Partial<Record<number, new (message: string, init: VmApiErrorInit) => VmApiError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  409: ConflictError,
  413: PayloadTooLargeError,
  429: RateLimitError,
};

/** Maps a non-2xx response to its error class; `status` on the error is the HTTP status as received. */
export function errorFromResponse(response: FailedResponse, request: RequestLabel): VmApiError {
  const facts = readErrorBody(response.body);
  const status = effectiveStatus(response.status, facts);
  const serverMessage = truncate(facts.message?.trim() || `HTTP ${response.status}`);
  const codeLabel = facts.code ? ` ${facts.code}` : "";
  const message = `${serverMessage} (${response.status}${codeLabel}, ${request.method} ${request.path})`;
  const init: VmApiErrorInit = {
    status: response.status,
    code: facts.code,
    ...request,
    retryAfterMs: response.retryAfterMs,
  };
  // A wrong route is a client/server mismatch, not a missing resource: a caller that treats
  // NotFoundError as "already deleted" must not swallow it.
  if (facts.code === "route_not_found") return new VmApiError(message, init);
  if (status === 404) {
    const saidByStatus = response.status === 404 || facts.status === 404;
    return new NotFoundError(message, { ...init, basis: saidByStatus ? "status" : "message" });
  }
  const ErrorClass = ERROR_CLASSES[status] ?? (status >= 500 ? ServerError : VmApiError);
  return new ErrorClass(message, init);
}

/** Transport error codes after which the server cannot have seen the request. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
const TIMEOUT_CODES = new Set(["ECONNABORTED", "ETIMEDOUT"]);

/**
 * Maps a failure without a response (axios error code such as ECONNREFUSED, ECONNRESET,
 * ECONNABORTED for its timeout) to `ConnectionError`/`TimeoutError`. The original error is not
 * kept as `cause`: axios errors carry the request config, headers and key included.
 */
export function errorFromTransport(
  code: string | undefined,
  detail: string,
  request: RequestLabel,
): ConnectionError {
  const where = `${request.method} ${request.path}`;
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new TimeoutError(`request timed out (${where}): ${detail}`, { ...request, code: "ETIMEDOUT" });
  }
  const requestMayHaveReachedServer = code === undefined || !NOT_SENT_CODES.has(code);
  return new ConnectionError(`connection failed${code ? ` with ${code}` : ""} (${where}): ${detail}`, {
    ...request,
    code,
    requestMayHaveReachedServer,
  });
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}
