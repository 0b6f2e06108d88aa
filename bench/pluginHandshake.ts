/**
 * The engine's first steps with a plugin it started, as benchmark 7 (pluginStart.ts) and its
 * count in instructions (startInstructions.ts) both take them: read the port the plugin prints
 * on stdout, then ask `GetPluginInfo`, the first request the engine makes, on the SDK's own gRPC
 * stubs.
 */
import type { ChildProcessByStdio } from "node:child_process";
import * as path from "node:path";
import type { Readable } from "node:stream";

/* eslint-disable @typescript-eslint/no-explicit-any -- the SDK's generated stubs come without types we can name here */
const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromSdk = (id: string): any => require(require.resolve(id, { paths: [sdkRoot] }));
const grpc = fromSdk("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const providerGrpc = fromSdk("@pulumi/pulumi/proto/provider_grpc_pb");
const emptyProto = fromSdk("google-protobuf/google/protobuf/empty_pb");
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The port `child` (started from `file`) prints as its first line; rejected if it exits first. */
export function printedPort(child: ChildProcessByStdio<null, Readable, null>, file: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (data: Buffer) => {
      text += data.toString();
      if (text.includes("\n")) resolve(text.trim());
    });
    child.once("exit", (code) => reject(new Error(`${file} exited ${code} before printing its port`)));
  });
}

/** Asks the plugin on 127.0.0.1:`port` for its info, as the engine does first, and closes the channel. */
export async function askPluginInfo(port: string): Promise<void> {
  const client = new providerGrpc.ResourceProviderClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
  );
  try {
    await new Promise((resolve, reject) =>
      client.getPluginInfo(new emptyProto.Empty(), (err: Error | null, info: unknown) =>
        err ? reject(err) : resolve(info),
      ),
    );
  } finally {
    client.close();
  }
}
