/**
 * The errors the provider raises itself. The client's errors (`VmApiError` and its subclasses)
 * say what the API answered; these say what the provider concluded from it. Callers match on
 * classes, not on messages, and `cause` keeps the error that led to one, so nothing of the
 * original failure is lost. None of them holds a key: their messages name ids, states and bounds.
 */

/** Base class of the errors the provider raises itself. */
export class ProviderError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }
}

/**
 * An operation's bound (`customTimeouts.<operation>` or `waitTimeoutSeconds`) ran out; `cause` is
 * the wait's own error (a `WaitTimeoutError`, or the `AbortedError` of a request the bound cut short).
 */
export class OperationTimeoutError extends ProviderError {
  /** The bound as the user wrote it, e.g. `customTimeouts.create (5s)`. */
  readonly bound: string;
  /** The bound in milliseconds. */
  readonly timeoutMs: number;

  constructor(bound: { label: string; ms: number }, cause: Error) {
    super(`${bound.label} ran out: ${cause.message}`, { cause });
    this.bound = bound.label;
    this.timeoutMs = bound.ms;
  }
}

/**
 * The API still shows a resource the operation needed gone (a delete that did not finish in time,
 * or a "not found" that was about something else): the resource stays in the stack.
 */
export class StillPresentError extends ProviderError {}

/**
 * An answer that would drop a resource from the stack does not prove it gone (a 404 for a machine
 * whose owner is outside the account of the key in use): the resource stays in the stack.
 */
export class AbsenceNotProvenError extends ProviderError {}
