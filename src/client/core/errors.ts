/**
 * The one error hierarchy of the client. Callers match on classes, not on strings. Every error
 * carries the HTTP status, the server's `error.code`, and the request as method + path. None of
 * them holds the API key, a request header or an axios object, so logging, `JSON.stringify` or
 * `util.inspect` of an error cannot leak a credential.
 */

/** What every error of the client carries besides its message. */
export interface VmApiErrorInit {
  /** HTTP status of the response; undefined when no response arrived (or no request was sent). */
  status?: number;
  /** The server's machine-readable `error.code`, or a client-side code such as `ECONNRESET`. */
  code?: string;
  /** HTTP method of the request that failed. */
  method?: string;
  /** Path of the request that failed, without the query string and without the base URL. */
  path?: string;
  /** The server's `retry-after-ms` or `Retry-After`, in milliseconds, on any answer that sent one. */
  retryAfterMs?: number;
}

/** Base class of every error the client throws. */
export class VmApiError extends Error {
  /** The HTTP status the API answered (its body's status when the two differ); undefined when none came. */
  readonly status: number | undefined;
  /** The error's code, e.g. `invalid_api_key` or `not_found` (see `ErrorCode`). */
  readonly code: string | undefined;
  /** The request's method, e.g. `GET`. */
  readonly method: string | undefined;
  /** The request's path, without the query string. */
  readonly path: string | undefined;
  /** How long the server asked to wait before a retry (429, 503, ...); undefined when it did not say. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, init: VmApiErrorInit = {}) {
    super(message);
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.method = init.method;
    this.path = init.path;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** A plain summary for structured logs; never holds headers or the key. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      method: this.method,
      path: this.path,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

/** HTTP 400: the server refused the request as malformed or invalid. */
export class BadRequestError extends VmApiError {}

/**
 * The client refused the input before sending anything (enums, mutual exclusions, the 16 KB script
 * limit, a poll policy). Not a `BadRequestError`: that class means the server answered 400, and a
 * caller must be able to tell "the API said no" from "nothing was sent" (as Stainless clients do).
 * `status` is undefined; `code` is `validation_failed`.
 */
export class ValidationError extends VmApiError {
  constructor(message: string, init: VmApiErrorInit = {}) {
    super(message, { code: "validation_failed", ...init });
  }
}

/** HTTP 401, or the real service's flat "Invalid API token" under a 400: the key was refused. */
export class AuthenticationError extends VmApiError {}

/** HTTP 403: authenticated, but not allowed (not the owner, not an admin, a team member creating). */
export class PermissionDeniedError extends VmApiError {}

/** What a `NotFoundError` rests on. */
export type NotFoundBasis = "status" | "message";

/**
 * HTTP 404, or a 400 whose body says 404 or "not found": the resource does not exist or is not
 * visible. `basis` says how sure that is: `"status"` when the HTTP status or the body's
 * `error.status` is 404; `"message"` when only the body's code or message says "not found" under
 * a 400, where the missing thing may be another resource named in the request (a network, a
 * template). Only a `"status"` answer about the addressed resource proves that it is gone.
 */
export class NotFoundError extends VmApiError {
  /** What the absence rests on: a 404 status, or only an error message that says "not found". */
  readonly basis: NotFoundBasis;

  constructor(message: string, init: VmApiErrorInit & { basis?: NotFoundBasis } = {}) {
    super(message, init);
    this.basis = init.basis ?? "status";
  }

  /** The summary of the base class, with this error\'s own fields. */
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), basis: this.basis };
  }
}

/**
 * True when `error` proves that the addressed resource is absent: a `NotFoundError` on the basis
 * of a 404 status. Deletes and refreshes treat nothing else as "gone".
 */
export function provesAbsence(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError && error.basis === "status";
}

/** HTTP 409: duplicate script name, or an action not possible in the current state. */
export class ConflictError extends VmApiError {}

/** HTTP 413: a script over 16 KB or a body too large. */
export class PayloadTooLargeError extends VmApiError {}

/** HTTP 429; `retryAfterMs` is the server's `Retry-After`, when it sent one. */
export class RateLimitError extends VmApiError {}

/** HTTP 5xx. */
export class ServerError extends VmApiError {}

/**
 * No response arrived. `requestMayHaveReachedServer` is false only when the server cannot have
 * acted (connection refused, host not found): the retry policy treats the rest as ambiguous.
 */
export class ConnectionError extends VmApiError {
  /** False when the server cannot have seen the request (refused); true when it may have acted on it. */
  readonly requestMayHaveReachedServer: boolean;

  constructor(message: string, init: VmApiErrorInit & { requestMayHaveReachedServer: boolean }) {
    super(message, init);
    this.requestMayHaveReachedServer = init.requestMayHaveReachedServer;
  }

  /** The summary of the base class, with this error\'s own fields. */
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), requestMayHaveReachedServer: this.requestMayHaveReachedServer };
  }
}

/** The request took longer than `timeoutMs`; the server may still have acted on it. */
export class TimeoutError extends ConnectionError {
  constructor(message: string, init: VmApiErrorInit = {}) {
    super(message, { code: "ETIMEDOUT", ...init, requestMayHaveReachedServer: true });
  }
}

/** A 2xx response did not match the shared contract (`schemas.ts`); the message names the field. */
export class ResponseValidationError extends VmApiError {}

/** The caller's AbortSignal fired. */
export class AbortedError extends VmApiError {
  constructor(message = "the operation was aborted", init: VmApiErrorInit = {}) {
    super(message, { code: "aborted", ...init });
  }
}

/** The client cannot be built: no API key, or a malformed setting. Raised before any request. */
export class ConfigurationError extends VmApiError {}

/** What a failed wait knew about the machine. */
export interface WaitErrorInit {
  machineId: string;
  targetState: string;
  /** Last state seen; undefined when no poll succeeded. */
  lastState: string | undefined;
}

/** Base class of the failures of `machines.waitFor`. */
export class WaitError extends VmApiError {
  /** The machine waited for. */
  readonly machineId: string;
  /** The state waited for. */
  readonly targetState: string;
  /** The state it was last seen in. */
  readonly lastState: string | undefined;

  constructor(message: string, init: WaitErrorInit & { code: string }) {
    super(message, { code: init.code });
    this.machineId = init.machineId;
    this.targetState = init.targetState;
    this.lastState = init.lastState;
  }

  /** The summary of the base class, with this error\'s own fields. */
  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      machineId: this.machineId,
      targetState: this.targetState,
      lastState: this.lastState,
    };
  }
}

/** `waitFor` ran out of time; the message names the last state seen. */
export class WaitTimeoutError extends WaitError {
  constructor(message: string, init: WaitErrorInit) {
    super(message, { ...init, code: "wait_timeout" });
  }
}

/** An `error` event appeared on the machine during the wait; `errorMsg` is the event's. */
export class MachineEventError extends WaitError {
  /** The failed event, e.g. `start`. */
  readonly eventName: string;
  /** The event's error message, as the API reports it. */
  readonly errorMsg: string;

  constructor(message: string, init: WaitErrorInit & { eventName: string; errorMsg: string }) {
    super(message, { ...init, code: "machine_event_error" });
    this.eventName = init.eventName;
    this.errorMsg = init.errorMsg;
  }

  /** The summary of the base class, with this error\'s own fields. */
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), eventName: this.eventName, errorMsg: this.errorMsg };
  }
}

/** The machine settled in a state the target cannot follow without an action (e.g. `off` for `ready`). */
export class StateUnreachableError extends WaitError {
  constructor(message: string, init: WaitErrorInit) {
    super(message, { ...init, code: "state_unreachable" });
  }
}
