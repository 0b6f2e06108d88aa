/**
 * The one error type every emulator layer throws, and the one body shape it becomes on the wire
 * (docs/api.md, "Errors"): `{"error": {"name": "Error", "status", "message", "code"}}` with the
 * HTTP status equal to `error.status`.
 */
import type { ErrorCode } from "../../contract/constants";

/** An answer that is not a success; the server adapter turns it into the nested error body. */
export class ApiError extends Error {
  /**
   * @param status HTTP status, also sent as `error.status`.
   * @param code stable machine-readable code from ERROR_CODES.
   * @param headers extra response headers (e.g. Retry-After, Allow).
   */
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The wire body of an error. */
export function errorBody(error: ApiError): {
  error: { name: string; status: number; message: string; code: ErrorCode };
} {
  return { error: { name: "Error", status: error.status, message: error.message, code: error.code } };
}

/** 400 validation_failed: the message names the field. */
export const badRequest = (message: string): ApiError => new ApiError(400, "validation_failed", message);
/** 401 invalid_api_key. */
export const unauthorized = (message: string): ApiError => new ApiError(401, "invalid_api_key", message);
/** 403 forbidden: authenticated but not allowed. */
export const forbidden = (message: string): ApiError => new ApiError(403, "forbidden", message);
/** 404 not_found: unknown id or not visible to the caller (the two are indistinguishable on purpose). */
export const notFound = (message: string): ApiError => new ApiError(404, "not_found", message);
/** 409 conflict: duplicate name or an action impossible in the current state. */
export const conflict = (message: string): ApiError => new ApiError(409, "conflict", message);
/** 413 payload_too_large. */
export const payloadTooLarge = (message: string): ApiError => new ApiError(413, "payload_too_large", message);
