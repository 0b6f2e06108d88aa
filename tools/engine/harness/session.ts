/**
 * What the resource RPCs share: the session with the plugin, and the engine's rules for what may be
 * sent (unknowns only in preview, secrets only if accepted) and for classifying failures.
 */
import type * as grpcT from "@grpc/grpc-js";
import { HarnessUsageError, PartialFailureError, ProviderRpcError } from "./errors";
import type { ProviderCall } from "./pluginProcess";
import type { Protocol } from "./pluginTypes";
import { provproto, statusproto } from "./sdk";
import { annotateSecrets, containsUnknowns, type Props } from "./values";
import { fromStruct, type MarshalOpts, type UnmarshalOpts } from "./wire";

/** What the resource RPCs share: the call into the plugin and the protocol Configure negotiated. */
export interface Session {
  readonly call: ProviderCall;
  readonly project: string;
  readonly stack: string;
  /** Protocol flags from the Configure response (undefined before configure). */
  protocol: Protocol | undefined;
}

/** The negotiated protocol; calling a resource RPC before Configure is a harness misuse. */
export function requireConfigured(s: Session, method: string): Protocol {
  if (!s.protocol)
    throw new HarnessUsageError(`${method} before configure(): the engine always configures first`);
  return s.protocol;
}

/** A gRPC failure as a {@link ProviderRpcError}; anything else is passed through. */
export function rpcError(method: string, e: unknown): Error {
  const se = e as grpcT.ServiceError;
  if (typeof se?.code !== "number") return e as Error;
  return new ProviderRpcError(method, se.code, se.details ?? se.message);
}

/** Rejects UNKNOWN values outside preview, where the engine never has any. */
export function noUnknowns(method: string, ...bags: (Props | undefined)[]): void {
  if (bags.some((b) => b && containsUnknowns(b))) {
    throw new HarnessUsageError(`${method}: UNKNOWN values only exist in preview; pass { preview: true }`);
  }
}

/** Marshal options for a request: secrets only if the provider accepts them. */
export function stripped(p: Protocol, keepUnknowns: boolean): MarshalOpts {
  return { keepSecrets: p.acceptSecrets, keepUnknowns };
}

/** Unmarshal options for real (non-preview) outputs: an unknown is an `EngineError`. */
export const outputs: UnmarshalOpts = { keepUnknowns: false, rejectUnknowns: true };

/** Create/Update failure: parseError() in provider_plugin.go. */
export function failure(method: string, e: unknown, ins: Props): Error {
  const se = e as grpcT.ServiceError;
  if (typeof se?.code !== "number") return e as Error;
  for (const raw of se.metadata?.get("grpc-status-details-bin") ?? []) {
    const status = statusproto.Status.deserializeBinary(new Uint8Array(raw as Buffer));
    for (const any of status.getDetailsList()) {
      if (any.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
      const init = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
      const outs = fromStruct(init.getProperties(), outputs, `${method}.outputs`);
      annotateSecrets(outs, ins);
      return new PartialFailureError(
        method,
        se.code,
        se.details ?? se.message,
        init.getId(),
        outs,
        init.getReasonsList(),
      );
    }
  }
  return rpcError(method, e);
}
