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
    // __provider is not merged back by the plugin for failures: carry it ourselves.
    this.properties = properties;
    this.reasons = [reason];
  }
}
