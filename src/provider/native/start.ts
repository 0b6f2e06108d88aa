/**
 * The plugin's start, which its entry (main.ts) runs, and a release's startup snapshot
 * (tools/plugin/snapshotMain.ts) after its deserialization: the engine's address from the
 * arguments, the port served and printed, the provider made at the first request that needs it
 * (main.ts says what loads when), and the converter's and the analyzer's names told first.
 */
import * as fs from "node:fs";
import type * as AnalyzerHookModule from "../../policy/analyzerHook";
import type * as ConverterHookModule from "../../terraform/converterHook";
import type * as ContextModule from "../account/context";
import { engineLog, type EngineLog } from "./engineLog";
import type * as NativeProviderModule from "./nativeProvider";
import type { NativeProvider } from "./nativeProvider";
import type { NativeSchema } from "./schemaFile";
import { serviceHandlers } from "./server";
import { serveUnary, type UnaryMethod } from "./transport/grpc";

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

/**
 * Serves the plugin: `schemaOf` gives the schema and `serviceOf` the service definition (the npm
 * package's entry reads the schema here; a release's startup snapshot made both before it was
 * taken: tools/plugin/snapshotMain.ts).
 */
async function serve(
  schemaOf: () => NativeSchema,
  serviceOf: () => Record<string, UnaryMethod>,
): Promise<void> {
  const address = engineAddress(process.argv.slice(2));
  const log = address === undefined ? STDERR_LOG : engineLog(address);
  const survive = (err: unknown) => {
    const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`pulumi-resource-vmapi: ${text}\n`);
  };
  process.on("uncaughtException", survive);
  process.on("unhandledRejection", survive);

  const schema = schemaOf();
  // The release's executable installed as the converter (pulumi-converter-vmapi) serves that instead.
  const { servedAsConverter } = require("../../terraform/converterHook") as typeof ConverterHookModule;
  if (servedAsConverter({ version: schema.version })) return;
  // Installed as the policy pack's analyzer (pulumi-analyzer-policy-vmapi), it serves the Analyzer service.
  const { servedAsAnalyzer } = require("../../policy/analyzerHook") as typeof AnalyzerHookModule;
  if (servedAsAnalyzer({ version: schema.version })) return;
  const { port } = await serveUnary(serviceOf(), serviceHandlers(lazyProvider(log, schema), schema), {
    maxReceiveBytes: 400 * 1024 * 1024,
  });
  // Straight to the descriptor: `process.stdout` would build a stream (and load its modules) for one line.
  fs.writeSync(1, `${port}\n`);
}

/** Serves the plugin (see serve); a failure to start is written to stderr and ends the process. */
export function startPlugin(
  schemaOf: () => NativeSchema,
  serviceOf: () => Record<string, UnaryMethod>,
): void {
  serve(schemaOf, serviceOf).catch((err: unknown) => {
    process.stderr.write(`pulumi-resource-vmapi: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
