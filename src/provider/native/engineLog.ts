/**
 * Progress lines of a native plugin, on the engine's display: each line is a diagnostic of the
 * resource it is about (its URN), so a long wait shows on that resource's row, not on the stack's.
 * Without an engine address (a test), lines go to a sink of the caller's.
 */
import { engineGrpc, engineProto, grpc } from "./sdkModules";

/** Severities the engine knows. */
export type Severity = "info" | "warning" | "error";

/** Where one plugin process sends its lines. */
export interface EngineLog {
  log(severity: Severity, message: string, urn?: string): void;
}

/**
 * A log to the engine at `address` (host:port, as the engine passes it to the plugin). Its client is
 * made at the first line, not before the plugin has printed its port.
 */
export function engineLog(address: string): EngineLog {
  let client: InstanceType<typeof engineGrpc.EngineClient> | undefined;
  const severities = {
    info: engineProto.LogSeverity.INFO,
    warning: engineProto.LogSeverity.WARNING,
    error: engineProto.LogSeverity.ERROR,
  };
  return {
    log(severity, message, urn) {
      client ??= new engineGrpc.EngineClient(address, grpc.credentials.createInsecure());
      const request = new engineProto.LogRequest();
      request.setSeverity(severities[severity]);
      request.setMessage(message);
      if (urn !== undefined) request.setUrn(urn);
      // A line that cannot be delivered is lost, never the operation it was about.
      client.log(request, () => undefined);
    },
  };
}
