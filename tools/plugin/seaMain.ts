/**
 * The single executable's main script (bundled alone by bundle.ts as `sea-main.js`): it runs the
 * plugin's bundle, an asset of the executable, with V8's code cache of it, another asset, made by
 * codeCache.ts from a run of the plugin (the modules it loads, and every function it calls, up to
 * the answers of `GetPluginInfo`, `GetSchema`, `CheckConfig` and `Configure`). Node's own
 * `useCodeCache` compiles the script without running it, so it holds only the code V8 compiles at once and every function the plugin
 * calls at start was compiled then (about 90 M instructions of 390 M at start, callgrind).
 *
 * The same file runs under `node` for that training run (`node sea-main.js --train SCRIPT CACHE
 * DIRNAME`): the script compiled and run the same way, the cache written on SIGUSR2. A single
 * executable never trains (its arguments are the engine's). The release's executable of the
 * building machine's platform no longer runs this script but a startup snapshot (snapshotMain.ts);
 * the other platform's (arm64, built on an amd64 machine) runs it with no cache (a code cache runs
 * only on the Node build of the platform that made it); a rejected cache (another V8's, other V8
 * flags) only costs the compiling.
 */
import * as fs from "node:fs";
import * as sea from "node:sea";
import * as vm from "node:vm";

/** The asset that holds the plugin's bundle, wrapped as a CommonJS module's function (bundle.ts). */
const SCRIPT_ASSET = "plugin.js";
/** The asset that holds the bundle's code cache (dist.sh names both). */
const CACHE_ASSET = "plugin.cache";
/** The script's name in stack traces. */
const FILENAME = "pulumi-resource-vmapi.js";

/** Compiles the wrapped bundle (V8 checks the cache against the source and its own version and flags). */
function compile(source: string, cachedData: Buffer | undefined): vm.Script {
  return new vm.Script(source, { filename: FILENAME, cachedData });
}

/** Runs the compiled bundle as a CommonJS module, with this script's require (Node's own modules). */
function run(script: vm.Script, dirname: string): void {
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const bundleModule = { exports: {} };
  wrapper(bundleModule.exports, require, bundleModule, __filename, dirname);
}

/** The single executable: the bundle and its cache from the assets. */
function runAsSea(): void {
  const source = Buffer.from(sea.getRawAsset(SCRIPT_ASSET)).toString("latin1");
  const cached = sea.getAssetKeys().includes(CACHE_ASSET)
    ? Buffer.from(sea.getRawAsset(CACHE_ASSET))
    : undefined;
  const script = compile(source, cached);
  // dist.sh's check that the cache it built is the one the executable takes.
  if (process.env.VMAPI_PLUGIN_CODE_CACHE_CHECK === "1" && cached && script.cachedDataRejected) {
    process.stderr.write("pulumi-resource-vmapi: the code cache was rejected\n");
    process.exit(3);
  }
  run(script, __dirname);
}

/**
 * The training run: the bundle from `scriptFile`, run as the executable runs it with `dirname` as
 * its folder (where it finds plugin/schema.json outside an executable); SIGUSR2 writes the code
 * cache of everything compiled so far to `cacheFile` and ends the process.
 */
function train(scriptFile: string, cacheFile: string, dirname: string): void {
  const script = compile(fs.readFileSync(scriptFile, "latin1"), undefined);
  process.on("SIGUSR2", () => {
    fs.writeFileSync(cacheFile, script.createCachedData());
    process.exit(0);
  });
  process.argv.splice(2, 4);
  run(script, dirname);
}

if (sea.isSea()) runAsSea();
else if (process.argv[2] === "--train") train(process.argv[3], process.argv[4], process.argv[5]);
else throw new Error("sea-main.js runs inside the single executable, or with --train SCRIPT CACHE DIRNAME");
