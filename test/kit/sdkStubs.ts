/**
 * The SDK's generated protocol stubs, google-protobuf's well-known types and the SDK's gRPC
 * runtime (grpc-js), resolved as the SDK resolves them: the engine's side of the wire in the tests
 * that compare the plugin's codec (src/provider/native/providerMessages.ts) and its own gRPC
 * (src/provider/native/transport/) with the SDK's. The plugin loads none of them.
 */
import * as path from "path";

const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));

/** Requires `id` as the SDK resolves it. */
function fromSdk<T>(id: string): T {
  return require(require.resolve(id, { paths: [sdkRoot] })) as T;
}

/** `@grpc/grpc-js`, the SDK's dependency (not ours), found next to it. */
export const grpc = fromSdk<typeof import("@grpc/grpc-js")>("@grpc/grpc-js");

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated stubs come without types we can name here */
/** `google-protobuf`'s Struct, Empty and Any. */
export const structProto = fromSdk<any>("google-protobuf/google/protobuf/struct_pb");
export const emptyProto = fromSdk<any>("google-protobuf/google/protobuf/empty_pb");
export const anyProto = fromSdk<any>("google-protobuf/google/protobuf/any_pb");
/** The protocol's messages and services. */
export const providerProto = require("@pulumi/pulumi/proto/provider_pb") as any;
export const providerGrpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as any;
export const pluginProto = require("@pulumi/pulumi/proto/plugin_pb") as any;
export const engineProto = require("@pulumi/pulumi/proto/engine_pb") as any;
export const engineGrpc = require("@pulumi/pulumi/proto/engine_grpc_pb") as any;
export const statusProto = require("@pulumi/pulumi/proto/status_pb") as any;
/** The `Analyzer` service's messages and stubs (the policy pack's side: src/policy/). */
export const analyzerProto = require("@pulumi/pulumi/proto/analyzer_pb") as any;
export const analyzerGrpc = require("@pulumi/pulumi/proto/analyzer_grpc_pb") as any;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A unary call of a generated client's method `name` with `request`, as a promise. */
export function unaryCall<T>(client: object, name: string, request: unknown): Promise<T> {
  const method = (
    client as Record<string, (request: unknown, done: (err: Error | null, answer: T) => void) => void>
  )[name];
  return new Promise((resolve, reject) =>
    method.call(client, request, (err, answer) => (err ? reject(err) : resolve(answer))),
  );
}
