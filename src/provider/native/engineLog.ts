/**
 * Progress lines of a native plugin, on the engine's display: each line is a diagnostic of the
 * resource it is about (its URN), so a long wait shows on that resource's row, not on the stack's.
 * Without an engine address (a test), lines go to a sink of the caller's.
 *
 * The engine's `Log` is called by the plugin's own gRPC client (transport/grpc.ts), its
 * `LogRequest` encoded by providerMessages.ts.
 */
import { unaryMethod, type LogRequest } from "./providerMessages";
import { UnaryClient } from "./transport/grpc";

/** Severities the engine knows. */
export type Severity = "info" | "warning" | "error";

/** Where one plugin process sends its lines. */
export interface EngineLog {
  log(severity: Severity, message: string, urn?: string): void;
}

/** pulumirpc.LogSeverity. */
const SEVERITIES: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

/** `pulumirpc.Engine/Log`. */
const LOG = unaryMethod("pulumirpc.Engine", "log", "LogRequest", "Empty");

/**
 * A log to the engine at `address` (host:port, as the engine passes it to the plugin). Its client is
 * made at the first line, not before the plugin has printed its port.
 */
export function engineLog(address: string): EngineLog {
  const client = new UnaryClient(address);
  return {
    log(severity, message, urn) {
      const request: LogRequest = { severity: SEVERITIES[severity], message, urn: urn ?? "" };
      // A line that cannot be delivered is lost, never the operation it was about.
      void client.call(LOG, request);
    },
  };
}
