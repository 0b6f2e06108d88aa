/**
 * The provider's script of the single executable (bundle.ts's `provider.js`): the modules
 * the plugin loads only at the first request that needs them (the provider, the account's context
 * and settings, zod, axios, the implementations; the converter's and the analyzer's servers), which
 * a startup snapshot cannot hold (axios loads `http` and `https`). The start's script, whose
 * modules are in the snapshot, gets them here: the first `require` of one of them compiles the
 * script with its own V8 code cache (trained through `Configure`, codeCache.ts) and runs it; the
 * script's modules run when they are first required, as they would in one bundle.
 *
 * A module both scripts use (the gRPC transport with its `GrpcFailure`, the codec, the errors) is
 * the start's: the provider's script asks for it as `vmapi-start:<its path>` and is handed the
 * start's module, so that there is one of each class and of each module's state.
 */
import * as fs from "node:fs";
import type * as vm from "node:vm";

/** The provider's script among the executable's assets (dist.sh), and its code cache. */
export const PROVIDER_SCRIPT_ASSET = "provider.js";
export const PROVIDER_CACHE_ASSET = "provider.cache";
/** The prefix under which the provider's script asks for a module of the start's. */
export const START_MODULE_PREFIX = "vmapi-start:";
/** The provider's script in stack traces. */
const FILENAME = "pulumi-resource-vmapi-provider.js";

/** Modules by their path in the repository, each loaded (and run, the first time) by its function. */
export type ModuleTable = Readonly<Record<string, () => unknown>>;

/** Where the provider's script comes from: its text and the code cache to compile it with. */
export interface ProviderSource {
  source(): string;
  cachedData(): Buffer | undefined;
}

/** What the provider's script is compiled from (set by the start's entry), and the start's modules. */
let providerSource: ProviderSource | undefined;
let startModules: ModuleTable = {};
let compiled: vm.Script | undefined;
let providerModules: ModuleTable | undefined;

/** The start's modules the provider's script may ask for (bundle.ts lists them). */
export function shareStartModules(modules: ModuleTable): void {
  startModules = modules;
}

/** Where the provider's script will be compiled from. */
export function useProviderSource(source: ProviderSource): void {
  providerSource = source;
}

/** The executable's assets: the provider's script and, on the host's platform, its code cache. */
export function seaProviderSource(): ProviderSource {
  const sea = process.getBuiltinModule("node:sea");
  return {
    source: () => Buffer.from(sea.getRawAsset(PROVIDER_SCRIPT_ASSET)).toString("latin1"),
    cachedData: () =>
      sea.getAssetKeys().includes(PROVIDER_CACHE_ASSET)
        ? Buffer.from(sea.getRawAsset(PROVIDER_CACHE_ASSET))
        : undefined,
  };
}

/** The training run's: the script from `file`, compiled without a cache. */
export function fileProviderSource(file: string): ProviderSource {
  return { source: () => fs.readFileSync(file, "latin1"), cachedData: () => undefined };
}

/**
 * The provider's script, compiled (once) with its code cache. `onRejected` is called when V8
 * rejected the cache it was given (another V8, other flags): the compiling costs more, nothing else.
 */
export function providerScript(onRejected: () => void = () => undefined): vm.Script {
  if (compiled !== undefined) return compiled;
  if (providerSource === undefined) throw new Error("the provider's script has no source");
  const cachedData = providerSource.cachedData();
  // Node's `vm` loaded here: a snapshot may not hold it (snapshotMain.ts).
  const { Script } = process.getBuiltinModule("node:vm");
  compiled = new Script(providerSource.source(), { filename: FILENAME, cachedData });
  if (cachedData !== undefined && compiled.cachedDataRejected === true) onRejected();
  return compiled;
}

/** Module `id` (its path in the repository) of the provider's script, which runs at the first such call. */
export function providerModule(id: string): unknown {
  providerModules ??= runProviderScript();
  const load = providerModules[id];
  if (load === undefined) throw new Error(`the provider's script holds no ${id}`);
  return load();
}

/** Runs the provider's script, a CommonJS module's function whose exports are its module table. */
function runProviderScript(): ModuleTable {
  const wrapper = providerScript().runInThisContext() as (...args: unknown[]) => void;
  const scriptModule: { exports: unknown } = { exports: {} };
  wrapper(scriptModule.exports, providerRequire, scriptModule, FILENAME, ".");
  return scriptModule.exports as ModuleTable;
}

/** The start's modules handed out, each the same object every time. */
const shared = new Map<string, unknown>();

/**
 * The provider script's `require`: a module of the start's by its path, or Node's own module.
 * Anything else (the SDK's main module, which the plugin never loads) is not found, as in a single
 * executable.
 */
export function providerRequire(id: string): unknown {
  if (id.startsWith(START_MODULE_PREFIX)) {
    const path = id.slice(START_MODULE_PREFIX.length);
    if (!shared.has(path)) {
      const load = startModules[path];
      if (load === undefined) throw new Error(`the start's script holds no ${path}`);
      shared.set(path, load());
    }
    return shared.get(path);
  }
  const builtin = process.getBuiltinModule(id) as unknown;
  if (builtin !== undefined) return builtin;
  const err = new Error(`Cannot find module '${id}'`) as Error & { code: string };
  err.code = "MODULE_NOT_FOUND";
  throw err;
}
