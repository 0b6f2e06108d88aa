/**
 * The main script of the single executable, which Node runs when it builds the executable's
 * startup snapshot (sea-config `useSnapshot`, dist.sh): bundled by bundle.ts as `start.js` with the
 * modules the plugin runs before it answers `GetPluginInfo` and `GetSchema` (its gRPC, its codec,
 * the server, the converter's and the analyzer's hooks), which it loads, with the schema parsed and
 * the service defined, before the snapshot is taken; the executable starts from that heap and runs
 * `startPlugin` (src/provider/native/start.ts), as the npm package's entry (main.ts) does. The
 * modules the plugin loads later are in a script of their own with its own code cache, compiled at
 * the first request that needs them (providerScript.ts): a snapshot cannot hold `http`.
 *
 * The same file runs under `node` for the training of that cache (`node start.js --train
 * PROVIDER_SCRIPT CACHE`, codeCache.ts): the plugin served the same way, the provider's script
 * read from PROVIDER_SCRIPT, and its cache written to CACHE on SIGUSR2.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as v8 from "node:v8";
import { providerService } from "../../src/provider/native/providerMessages";
import { NativeSchema } from "../../src/provider/native/schemaFile";
import { startPlugin } from "../../src/provider/native/start";
import { fileProviderSource, providerScript, seaProviderSource, useProviderSource } from "./providerScript";

/** The schema beside this script (bundle.ts copies it there), read where the snapshot is made. */
const SCHEMA_FILE = "schema.json";

const schema = new NativeSchema(fs.readFileSync(path.join(__dirname, SCHEMA_FILE), "utf8"));
const service = providerService();

/** The single executable, started from the snapshot. */
function runAsSea(): void {
  useProviderSource(seaProviderSource());
  // dist.sh's check that the provider's code cache it built is the one the executable takes.
  if (process.env.VMAPI_PLUGIN_CODE_CACHE_CHECK === "1")
    providerScript(() => {
      process.stderr.write("pulumi-resource-vmapi: the provider's code cache was rejected\n");
      process.exit(3);
    });
  startPlugin(
    () => schema,
    () => service,
  );
}

/** The training run: SIGUSR2 writes the code cache of the provider's script to `cacheFile`. */
function train(providerFile: string, cacheFile: string): void {
  useProviderSource(fileProviderSource(providerFile));
  process.on("SIGUSR2", () => {
    fs.writeFileSync(cacheFile, providerScript().createCachedData());
    process.exit(0);
  });
  startPlugin(
    () => schema,
    () => service,
  );
}

/** The snapshot's main function: the single executable's start, or the training run's. */
function main(): void {
  const at = process.argv.indexOf("--train");
  if (process.getBuiltinModule("node:sea").isSea()) runAsSea();
  else if (at > 0) {
    const [providerFile, cacheFile] = process.argv.splice(at, 3).slice(1);
    train(providerFile, cacheFile);
  } else
    throw new Error(
      "start.js's snapshot runs as the single executable, or with --train PROVIDER_SCRIPT CACHE",
    );
}

if (!v8.startupSnapshot.isBuildingSnapshot())
  throw new Error(
    "start.js is the main script of a startup snapshot (the single executable's, or its training run's)",
  );
v8.startupSnapshot.setDeserializeMainFunction(main);
