/**
 * The code cache of the single executable's provider's script (bundle.ts's provider.js), made from
 * a run of the plugin as the executable runs it: a startup snapshot of start.js is made with the
 * executable's own Node build (the other platform's under its emulator), a process started from
 * it is asked what the engine asks a plugin it starts (`GetPluginInfo`, `GetSchema`, then
 * `CheckConfig` and `Configure`, which load the provider), then what a preview and a refresh ask
 * of a stack's Machines (`Check` and `Diff`; `Read`, the account's listing among them, and `Diff`),
 * against an emulator of the API in this process; then it writes V8's cache of the provider's
 * script: its modules (zod, axios, the implementations) and every function those answers ran, so
 * that neither the provider's first configuration nor a command's first resources compile them
 * (24 M instructions fewer on the main thread through a preview's first eight Machines, 34 M
 * through a refresh's, about 2 M more at `Configure`: docs/benchmarks.md, 2026-12-07).
 *
 *   node -r ts-node/register/transpile-only tools/plugin/codeCache.ts BUNDLE_DIR [NODE_COMMAND...]
 *
 * writes BUNDLE_DIR/provider.cache from BUNDLE_DIR/start.js and provider.js; NODE_COMMAND (this
 * machine's node by default; for another platform, its emulator's command and that platform's
 * node) runs the snapshot and the training. V8 takes the cache only in a process whose snapshot has
 * the same read-only heap as the training's, which two snapshots of one script have when both are
 * made with SNAPSHOT_FLAGS (dist.sh makes the executable's with them).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { DECLARED_MACHINE, inFlight, readyMachine } from "./machineRequests";
import { PluginClient, printedPort } from "./pluginClient";

/** How long the training run may take to print its port, and to give each answer. */
const TIMEOUT_MS = 120_000;

/**
 * The V8 flags every startup snapshot of the plugin is made with (dist.sh's too): with a fixed
 * random seed two snapshots of one script have the same read-only heap, so a code cache made in a
 * process started from one is taken by processes started from the other. Only the build takes it:
 * a process started from the snapshot draws its own (Math.random differs from one run to the
 * next). A fixed hash seed (`--hash-seed`) would do as much but makes V8 reject the code cache of
 * Node's own modules that the snapshot carries (about 45 M instructions more to load `http` and
 * `https`).
 */
export const SNAPSHOT_FLAGS = ["--random-seed=1"];

/** Runs the training with `node` (a command: the file, then its first arguments) and writes `bundleDir`/provider.cache; returns its path. */
export async function trainProviderCache(
  bundleDir: string,
  node: readonly string[] = [process.execPath],
): Promise<string> {
  const cache = path.join(bundleDir, "provider.cache");
  const blob = path.join(bundleDir, "training.blob");
  fs.rmSync(cache, { force: true });
  await built(node, [
    ...SNAPSHOT_FLAGS,
    "--snapshot-blob",
    blob,
    "--build-snapshot",
    path.join(bundleDir, "start.js"),
  ]);
  try {
    await trained(node, [
      "--snapshot-blob",
      blob,
      "--",
      "--train",
      path.join(bundleDir, "provider.js"),
      cache,
    ]);
  } finally {
    fs.rmSync(blob, { force: true });
  }
  if (!fs.existsSync(cache)) throw new Error("the training run wrote no code cache");
  return cache;
}

/** Runs `node args` to its end; rejects with what it printed when it fails. */
function built(node: readonly string[], args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(node[0], [...node.slice(1), ...args], {
      env: { PATH: process.env.PATH },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

/**
 * Runs `node args` as the plugin, asks it what the engine asks (of Machines too, answered by an
 * emulator in this process), and has it write its cache (SIGUSR2).
 */
async function trained(node: readonly string[], args: string[]): Promise<void> {
  const emulator = await startEmulator({
    port: 0,
    host: "127.0.0.1",
    clock: "real",
    timeScale: TRAINING_TIME_SCALE,
    log: () => undefined,
  });
  try {
    // No NODE_OPTIONS: V8 takes a cache only under the flags it was made with, the executable's.
    const child = spawn(node[0], [...node.slice(1), ...args], {
      env: { PATH: process.env.PATH },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const port = await printedPort(child, TIMEOUT_MS).catch((err: Error) => {
      throw new Error(`the training run ${err.message}`);
    });
    const client = new PluginClient(port, TIMEOUT_MS);
    try {
      await client.throughConfigure(trainingSettings(emulator));
      await askedOfMachines(client, emulator);
    } finally {
      client.close();
      child.kill("SIGUSR2");
    }
    const code = await exited;
    if (code !== 0) throw new Error(`the training run exited ${code}`);
  } finally {
    await emulator.close();
  }
}

/** The emulator's time scale in the training (its machines start at once) and the plugin's poll scale. */
const TRAINING_TIME_SCALE = 0.002;

/** Machines the engine asks about at once (a refresh's reads, 4 per core here), and rounds of them. */
const IN_FLIGHT = 8;
const ROUNDS = 2;

/** The provider's settings for `emulator`. */
function trainingSettings(emulator: RunningEmulator): Record<string, string> {
  return { apiKey: emulator.keys.individual, baseUrl: emulator.url, pollScale: String(TRAINING_TIME_SCALE) };
}

/**
 * What a preview and a refresh ask of unchanged Machines, a few at a time as the engine asks: of
 * each, `Check` and `Diff` (a preview's), then `Read` and `Diff` (a refresh's), all of one machine
 * made in `emulator` and stored as the plugin's import of it answers.
 */
async function askedOfMachines(client: PluginClient, emulator: RunningEmulator): Promise<void> {
  const id = await readyMachine(emulator.keys.individual, emulator.url, "training");
  const urn = (i: number) => `urn:pulumi:training::machines::vmapi:index:Machine::machine-${i}`;
  const stored = await client.read(urn(0), id, {}, {});
  await inFlight(ROUNDS * IN_FLIGHT, IN_FLIGHT, async (i) => {
    const resource = urn(1 + i);
    await client.check(resource, DECLARED_MACHINE, DECLARED_MACHINE);
    await client.diff(resource, id, stored.properties, DECLARED_MACHINE);
    const read = await client.read(resource, id, stored.properties, stored.inputs);
    await client.diff(resource, id, read.properties, read.inputs);
  });
}

if (require.main === module) {
  const [bundleDir, ...node] = process.argv.slice(2);
  if (!bundleDir) {
    process.stderr.write("usage: codeCache.ts BUNDLE_DIR [NODE_COMMAND...]\n");
    process.exit(2);
  }
  trainProviderCache(path.resolve(bundleDir), node.length > 0 ? node : undefined).then(
    (cache) => process.stdout.write(`${cache}\n`),
    (err: unknown) => {
      process.stderr.write(`codeCache: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
