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

const REPO = path.resolve(__dirname, "..", "..");
/** The folder the bundle takes as its own in the training run: it finds plugin/schema.json from there. */
const NATIVE_DIR = path.join(REPO, "src", "provider", "native");

/* eslint-disable @typescript-eslint/no-explicit-any -- the SDK's generated stubs come without types we can name here */
const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [REPO] }));
const fromSdk = (id: string): any => require(require.resolve(id, { paths: [sdkRoot] }));
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Calls `method` of `client` with `request`; resolves with the answer. */
function ask(
  client: Record<string, (...args: unknown[]) => void>,
  method: string,
  request: unknown,
): Promise<unknown> {
  return new Promise((resolve, reject) =>
    client[method](request, (err: Error | null, answer: unknown) => (err ? reject(err) : resolve(answer))),
  );
}

/** Runs the training and writes `bundleDir`/plugin.cache; returns its path. */
export async function trainCodeCache(bundleDir: string): Promise<string> {
  const grpc = fromSdk("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
  const providerGrpc = fromSdk("@pulumi/pulumi/proto/provider_grpc_pb");
  const providerProto = fromSdk("@pulumi/pulumi/proto/provider_pb");
  const emptyProto = fromSdk("google-protobuf/google/protobuf/empty_pb");
  const cache = path.join(bundleDir, "plugin.cache");
  fs.rmSync(cache, { force: true });
  // No NODE_OPTIONS: V8 takes a cache only under the flags it was made with, the executable's.
  const child = spawn(
    process.execPath,
    [path.join(bundleDir, "sea-main.js"), "--train", path.join(bundleDir, "plugin.js"), cache, NATIVE_DIR],
    { env: { PATH: process.env.PATH }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const port = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (data: Buffer) => {
      text += data.toString();
      if (text.includes("\n")) resolve(text.trim());
    });
    child.once("exit", (code) =>
      reject(new Error(`the training run exited ${code} before printing its port`)),
    );
  });
  const client = new providerGrpc.ResourceProviderClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
  );
  try {
    await ask(client, "getPluginInfo", new emptyProto.Empty());
    await ask(client, "getSchema", new providerProto.GetSchemaRequest());
    await ask(client, "checkConfig", new providerProto.CheckRequest());
    await ask(client, "configure", new providerProto.ConfigureRequest());
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
