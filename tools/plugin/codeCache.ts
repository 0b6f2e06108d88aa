/**
 * The code cache of the host's single executable, made from a run of the plugin: sea-main.js runs
 * the bundle under this machine's Node (the build the executable carries) as the executable does,
 * this script asks it what the engine asks a plugin it starts (`GetPluginInfo`, `GetSchema`, then
 * `CheckConfig` and `Configure`, which load the provider), then the process writes V8's cache of
 * everything compiled so far: the modules loaded at start, the provider's (zod, axios, the
 * implementations), and every function those answers ran.
 *
 *   node -r ts-node/register/transpile-only tools/plugin/codeCache.ts BUNDLE_DIR
 *
 * writes BUNDLE_DIR/plugin.cache from BUNDLE_DIR/sea-main.js and plugin.js (bundle.ts); with
 * `--provider BUNDLE_DIR`, BUNDLE_DIR/provider.cache, the cache of the provider's script, from
 * start.js and provider.js (the host's executable, which starts from a snapshot). With the
 * provider in it, the start deserializes a larger cache (GetPluginInfo answered after 294 M
 * instructions against 274 M, callgrind) but the provider's first configuration no longer compiles
 * its modules (Configure answered after 472 M against 574 M): every stack's provider process loads
 * the provider, and only Pulumi YAML's schema read does not.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PluginClient, printedPort } from "./pluginClient";

const REPO = path.resolve(__dirname, "..", "..");
/** The folder the bundle takes as its own in the training run: it finds plugin/schema.json from there. */
const NATIVE_DIR = path.join(REPO, "src", "provider", "native");
/** How long the training run may take to print its port, and to give each answer. */
const TIMEOUT_MS = 120_000;

/** Runs the training and writes `bundleDir`/plugin.cache; returns its path. */
export function trainCodeCache(bundleDir: string): Promise<string> {
  const cache = path.join(bundleDir, "plugin.cache");
  return trained(
    [path.join(bundleDir, "sea-main.js"), "--train", path.join(bundleDir, "plugin.js"), cache, NATIVE_DIR],
    cache,
  );
}

/**
 * The same training for the host's executable made of a startup snapshot and the provider's script
 * (bundle.ts's start.js and provider.js): the start's script run by `node`, the cache of the
 * provider's script written to `bundleDir`/provider.cache; returns its path.
 */
export async function trainProviderCache(bundleDir: string): Promise<string> {
  const cache = path.join(bundleDir, "provider.cache");
  const blob = path.join(bundleDir, "training.blob");
  await built(process.execPath, [
    ...SNAPSHOT_FLAGS,
    "--snapshot-blob",
    blob,
    "--build-snapshot",
    path.join(bundleDir, "start.js"),
  ]);
  try {
    return await trained(
      ["--snapshot-blob", blob, "--", "--train", path.join(bundleDir, "provider.js"), cache],
      cache,
    );
  } finally {
    fs.rmSync(blob, { force: true });
  }
}

/**
 * The V8 flags every startup snapshot of the plugin is made with (dist.sh's too): a code cache made
 * in a process started from a snapshot is taken only by processes whose snapshot is the same one
 * (its read-only heap), and with a fixed random seed two snapshots of one script are. Only the
 * build takes it: a process started from the snapshot draws its own (Math.random differs from one
 * run to the next). A fixed hash seed (`--hash-seed`) would do as much but makes V8 reject the
 * code cache of Node's own modules that the snapshot carries (about 45 M instructions more to load
 * `http` and `https`).
 */
export const SNAPSHOT_FLAGS = ["--random-seed=1"];

/** Runs `file args` to its end; rejects with what it printed when it fails. */
function built(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { PATH: process.env.PATH }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

/** Runs `node args` as the plugin, asks it what the engine asks, and has it write `cache`. */
async function trained(args: string[], cache: string): Promise<string> {
  fs.rmSync(cache, { force: true });
  // No NODE_OPTIONS: V8 takes a cache only under the flags it was made with, the executable's.
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const port = await printedPort(child, TIMEOUT_MS).catch((err: Error) => {
    throw new Error(`the training run ${err.message}`);
  });
  const client = new PluginClient(port, TIMEOUT_MS);
  try {
    await client.pluginVersion();
    await client.schema();
    await client.configure();
  } finally {
    client.close();
    child.kill("SIGUSR2");
  }
  const code = await exited;
  if (code !== 0 || !fs.existsSync(cache))
    throw new Error(`the training run exited ${code} with no code cache`);
  return cache;
}

if (require.main === module) {
  const provider = process.argv[2] === "--provider";
  const bundleDir = process.argv[provider ? 3 : 2];
  if (!bundleDir) {
    process.stderr.write("usage: codeCache.ts [--provider] BUNDLE_DIR\n");
    process.exit(2);
  }
  (provider ? trainProviderCache : trainCodeCache)(path.resolve(bundleDir)).then(
    (cache) => process.stdout.write(`${cache}\n`),
    (err: unknown) => {
      process.stderr.write(`codeCache: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
