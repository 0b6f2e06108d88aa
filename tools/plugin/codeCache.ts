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
 * writes BUNDLE_DIR/plugin.cache from BUNDLE_DIR/sea-main.js and plugin.js (bundle.ts). With the
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
export async function trainCodeCache(bundleDir: string): Promise<string> {
  const cache = path.join(bundleDir, "plugin.cache");
  fs.rmSync(cache, { force: true });
  // No NODE_OPTIONS: V8 takes a cache only under the flags it was made with, the executable's.
  const child = spawn(
    process.execPath,
    [path.join(bundleDir, "sea-main.js"), "--train", path.join(bundleDir, "plugin.js"), cache, NATIVE_DIR],
    { env: { PATH: process.env.PATH }, stdio: ["ignore", "pipe", "inherit"] },
  );
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
  const bundleDir = process.argv[2];
  if (!bundleDir) {
    process.stderr.write("usage: codeCache.ts BUNDLE_DIR\n");
    process.exit(2);
  }
  trainCodeCache(path.resolve(bundleDir)).then(
    (cache) => process.stdout.write(`${cache}\n`),
    (err: unknown) => {
      process.stderr.write(`codeCache: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
