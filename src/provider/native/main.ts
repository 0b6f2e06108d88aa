#!/usr/bin/env node
/**
 * `pulumi-resource-vmapi`: the plugin the engine starts for `vmapi:` resources and functions
 * (plugin/pulumi-resource-vmapi runs node on this file; a release's single executable holds it
 * bundled: tools/plugin/dist.sh). It serves the protocol on a free port
 * of 127.0.0.1 and prints the port on stdout, as the engine expects; its first argument is the
 * engine's address, where progress lines go.
 *
 * An error that escapes every handler (an exception in a timer, a rejection nobody awaited) is
 * logged and the plugin serves on: a dead plugin would fail every operation in flight, and a
 * machine whose create it was running would reach no stack.
 *
 * Only what the port and the plugin's identity need loads before the port is printed: the plugin's
 * own gRPC over HTTP/2 (transport/: Node's `net`, not its `http2`, nor grpc-js), its codec and
 * service definition (providerMessages.ts: no google-protobuf, no generated stubs) and the
 * schema. The provider (the API client, the contract's zod
 * schemas, the resource implementations) loads at the first request that needs it, so the engine
 * gets its first answer sooner, and a process that only answers `GetPluginInfo` and `GetSchema`
 * (the one Pulumi YAML starts to read the schema, `pulumi package get-schema`) never loads it.
 *
 * The same executable, installed under the converter's name (`pulumi-converter-vmapi`, the
 * release's converter tarball), is the converter plugin of `pulumi import --from vmapi`:
 * terraform/converterHook.ts tells by the name (provider/native/servedAs.ts), and serves that
 * instead; the converter's own modules load only then. Installed as the analyzer plugin
 * `policy-vmapi` (`pulumi-analyzer-policy-vmapi`), policy/analyzerHook.ts serves the policy pack.
 */
import * as fs from "node:fs";
import type * as AnalyzerHookModule from "../../policy/analyzerHook";
import type * as ConverterHookModule from "../../terraform/converterHook";
import type * as ContextModule from "../account/context";
import { engineLog, type EngineLog } from "./engineLog";
import type * as NativeProviderModule from "./nativeProvider";
import type { NativeProvider } from "./nativeProvider";
import { shippedSchema, type NativeSchema } from "./schemaFile";
import { providerService } from "./providerMessages";
import { serviceHandlers } from "./server";
import { serveUnary } from "./transport/grpc";

/** The engine's address among the arguments (the engine may put logging flags first). */
function engineAddress(args: readonly string[]): string | undefined {
  const plain = args.filter((arg, i) => !arg.startsWith("-") && args[i - 1] !== "--tracing");
  return plain[0];
}

/** A log that writes to stderr when there is no engine to send lines to. */
const STDERR_LOG: EngineLog = {
  log: (severity, message) => process.stderr.write(`${severity}: ${message}\n`),
};

/** The provider, made (and its modules loaded) at the first call. */
function lazyProvider(log: EngineLog, schema: NativeSchema): () => NativeProvider {
  let provider: NativeProvider | undefined;
  return () => {
    if (provider !== undefined) return provider;
    const { NativeProvider } = require("./nativeProvider") as typeof NativeProviderModule;
    const { providerContext } = require("../account/context") as typeof ContextModule;
    // The process's context: what every call of this plugin shares (lookups, budgets, the names seen).
    const context = providerContext({
      progress: (m) => log.log("info", m),
      warn: (m) => log.log("warning", m),
    });
    provider = new NativeProvider(context, log, schema);
    return provider;
  };
}

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
  // The release's executable installed as the converter (pulumi-converter-vmapi) serves that instead.
  const { servedAsConverter } = require("../../terraform/converterHook") as typeof ConverterHookModule;
  if (servedAsConverter({ version: schema.version })) return;
  // Installed as the policy pack's analyzer (pulumi-analyzer-policy-vmapi), it serves the Analyzer service.
  const { servedAsAnalyzer } = require("../../policy/analyzerHook") as typeof AnalyzerHookModule;
  if (servedAsAnalyzer({ version: schema.version })) return;
  const { port } = await serveUnary(providerService(), serviceHandlers(lazyProvider(log, schema), schema), {
    maxReceiveBytes: 400 * 1024 * 1024,
  });
  // Straight to the descriptor: `process.stdout` would build a stream (and load its modules) for one line.
  fs.writeSync(1, `${port}\n`);
}

serve().catch((err: unknown) => {
  process.stderr.write(`pulumi-resource-vmapi: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
