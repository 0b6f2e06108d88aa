/** Errors the harness raises: its own misuse, engine rejections, and failed provider RPCs. */
import { grpc } from "./sdk";
import type { Props } from "./values";

/** A mistake in how the harness is used (not something the engine or plugin did). */
export class HarnessUsageError extends Error {
  override name = "HarnessUsageError";
}

/** Something the engine itself would reject (e.g. an unknown value in real outputs). */
export class EngineError extends Error {
  override name = "EngineError";
}

/** A failed provider RPC. `details` is the plugin's message (usually the provider's `Error.message`). */
export class ProviderRpcError extends Error {
  override name = "ProviderRpcError";
  constructor(
    public readonly method: string,
    public readonly code: number,
    public readonly details: string,
    message = `${method}: ${details}`,
  ) {
    super(message);
  }
  /** Engine classification (resourceStateAndError): Unknown/Internal/DataLoss leave the status unknown. */
  get statusUnknown(): boolean {
    return [grpc.status.UNKNOWN, grpc.status.INTERNAL, grpc.status.DATA_LOSS].includes(this.code);
  }
}

/**
 * A create/update the provider rejected with `{ id, properties, reasons }` (ErrorResourceInitFailed
 * in the gRPC status details). The engine keeps the resource in state with `id`/`outs` and reports
 * only `reasons` (`message` mirrors that text); the provider's own message is in `details`.
 */
export class PartialFailureError extends ProviderRpcError {
  override name = "PartialFailureError";
  constructor(
    method: string,
    code: number,
    details: string,
    public readonly id: string,
    /** `properties` from the error, secrets annotated like successful outputs. No `__provider` is added. */
    public readonly outs: Props,
    public readonly reasons: string[],
  ) {
    super(method, code, details, initErrorMessage(reasons));
  }
}

/** Go `InitError.Error()` (hashicorp/go-multierror formatting). */
function initErrorMessage(reasons: string[]): string {
  if (reasons.length === 0) return "resource init failed";
  const n = reasons.length;
  return `${n} error${n === 1 ? "" : "s"} occurred:\n${reasons.map((r) => `\t* ${r}`).join("\n")}\n\n`;
}
