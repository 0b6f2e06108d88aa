/**
 * Partial failure: the API created the resource but it did not settle. Rejecting with `id`,
 * `properties` and `reasons` makes the engine keep it in state as created-but-failed, so it is
 * never orphaned and the next `pulumi up` carries on.
 */

/** The error the dynamic-provider plugin turns into ErrorResourceInitFailed. */
export class ResourceInitError extends Error {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  constructor(id: string, properties: Record<string, unknown>, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(reason);
    this.name = "ResourceInitError";
    this.id = id;
    // What a door keeps beside the outputs (the dynamic plugin's `__provider` among them, which it
    // does not merge back for failures) the door adds (dynamic/dynamicProvider.ts, native/).
    this.properties = properties;
    this.reasons = [reason];
  }
}

/**
 * `err`, when it is a partial failure (an `id` and the `properties` the engine stores), with its
 * properties as the door stores outputs (`store`: what the door keeps beside them, its marks), so
 * the next operation finds them as it finds a success's; any other error as it is. Both doors
 * call it on what an implementation throws.
 */
export function keptOnPartialFailure(
  err: unknown,
  store: (properties: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  const partial = err as { id?: unknown; properties?: unknown };
  if (
    typeof partial?.id === "string" &&
    typeof partial.properties === "object" &&
    partial.properties !== null
  )
    partial.properties = store(partial.properties as Record<string, unknown>);
  return err;
}
