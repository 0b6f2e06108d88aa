/**
 * The Pulumi SDK pieces the harness talks through: gRPC, the generated protobuf stubs, and the
 * paths of the dynamic-provider plugin and of the repository.
 */
import { createRequire } from "module";
import * as path from "path";
import type * as grpcT from "@grpc/grpc-js";
import type * as provprotoT from "@pulumi/pulumi/proto/provider_pb";
import type * as provrpcT from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as engprotoT from "@pulumi/pulumi/proto/engine_pb";
import type * as engrpcT from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as statusprotoT from "@pulumi/pulumi/proto/status_pb";
import type * as structprotoT from "google-protobuf/google/protobuf/struct_pb";
import type * as emptyprotoT from "google-protobuf/google/protobuf/empty_pb";

// gRPC and the generated stubs are loaded from the SDK's own location (plain Node require, outside
// jest's module registry) so client, stubs and google-protobuf are the same copies the plugin uses.
const SDK_ROOT = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const sdkRequire = createRequire(path.join(SDK_ROOT, "package.json"));
export const grpc: typeof grpcT = sdkRequire("@grpc/grpc-js");
export const provproto: typeof provprotoT = sdkRequire("./proto/provider_pb");
export const provrpc: typeof provrpcT = sdkRequire("./proto/provider_grpc_pb");
export const engproto: typeof engprotoT = sdkRequire("./proto/engine_pb");
export const engrpc: typeof engrpcT = sdkRequire("./proto/engine_grpc_pb");
export const statusproto: typeof statusprotoT = sdkRequire("./proto/status_pb");
export const structproto: typeof structprotoT = sdkRequire("google-protobuf/google/protobuf/struct_pb");
export const emptyproto: typeof emptyprotoT = sdkRequire("google-protobuf/google/protobuf/empty_pb");

/** The plugin binary the engine launches for `pulumi-nodejs:dynamic:*` resources. */
export const PLUGIN_PATH = path.join(SDK_ROOT, "pulumi-resource-pulumi-nodejs");
/** Repository root: where `@pulumi/pulumi` resolves, so the plugin can `require` it. */
export const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");
