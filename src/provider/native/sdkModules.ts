/**
 * The gRPC runtime, taken from the program's `@pulumi/pulumi` (the peer dependency every user of
 * this package installs), resolved from where that SDK lives: `@grpc/grpc-js` is its dependency,
 * not ours, so it is found next to it, never by a hoisting that npm does not promise. The
 * protocol's messages are providerMessages.ts's own codec: the plugin loads neither
 * google-protobuf nor the SDK's generated stubs (the tests compare the codec with them:
 * test/kit/sdkStubs.ts).
 */
import * as path from "path";

const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));

/** Requires `id` as the SDK resolves it. */
function fromSdk<T>(id: string): T {
  return require(require.resolve(id, { paths: [sdkRoot] })) as T;
}

/** `@grpc/grpc-js`. */
export const grpc = fromSdk<typeof import("@grpc/grpc-js")>("@grpc/grpc-js");
