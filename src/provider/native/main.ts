#!/usr/bin/env node
/**
 * `pulumi-resource-vmapi`: the plugin the engine starts for `vmapi:` resources and functions
 * (plugin/pulumi-resource-vmapi runs node on this file). It serves the protocol on a free port
 * of 127.0.0.1 and prints the port on stdout, as the engine expects; its first argument is the
 * engine's address, where progress lines go.
 *
 * An error that escapes every handler (an exception in a timer, a rejection nobody awaited) is
 * logged and the plugin serves on: a dead plugin would fail every operation in flight, and a
 * machine whose create it was running would reach no stack.
 */
import { PROCESS_CONTEXT } from "../shared/context";
import { engineLog, type EngineLog } from "./engineLog";
import { NativeProvider } from "./nativeProvider";
import { shippedSchema } from "./schemaFile";
import { grpc, providerGrpc } from "./sdkModules";
import { serviceHandlers } from "./server";

/** The engine's address among the arguments (the engine may put logging flags first). */
function engineAddress(args: readonly string[]): string | undefined {
  const plain = args.filter((arg, i) => !arg.startsWith("-") && args[i - 1] !== "--tracing");
  return plain[0];
}

/** A log that writes to stderr when there is no engine to send lines to. */
const STDERR_LOG: EngineLog = {
  log: (severity, message) => process.stderr.write(`${severity}: ${message}\n`),
};

async function serve(): Promise<void> {
  const address = engineAddress(process.argv.slice(2));
  const log = address === undefined ? STDERR_LOG : engineLog(address);
  const survive = (err: unknown) => {
    const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`pulumi-resource-vmapi: ${text}\n`);
  };
  process.on("uncaughtException", survive);
  process.on("unhandledRejection", survive);

  const schema = shippedSchema();
  const provider = new NativeProvider(
    { ...PROCESS_CONTEXT, progress: (m) => log.log("info", m), warn: (m) => log.log("warning", m) },
    log,
    schema,
  );
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(providerGrpc.ResourceProviderService, serviceHandlers(provider, schema));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  process.stdout.write(`${port}\n`);
}

serve().catch((err: unknown) => {
  process.stderr.write(`pulumi-resource-vmapi: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
