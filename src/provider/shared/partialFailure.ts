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
