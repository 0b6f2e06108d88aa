/**
 * src/provider/native/sdkModules.ts as the plugin's bundle has it (tools/plugin/bundle.ts puts this
 * module in its place): the same modules, required by name so that the bundler takes them in. The
 * bundler resolves `@grpc/grpc-js` and `google-protobuf` from the SDK's folder, as sdkModules.ts
 * does at run time, so the bundle holds the copies the SDK's stubs were generated against. The
 * types tie the two lists: a module added there and not here fails `npm run typecheck`.
 */
import type * as SdkModules from "../../src/provider/native/sdkModules";
import type * as Bundled from "./bundledSdkModules";

/** What sdkModules.ts exports and this module does not: nothing, or the typecheck fails below. */
type Missing = Exclude<keyof typeof SdkModules, keyof typeof Bundled>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/** `@grpc/grpc-js`. */
export const grpc: typeof SdkModules.grpc = require("@grpc/grpc-js");
/** `google-protobuf`'s Struct, Empty and Any. */
export const structProto: typeof SdkModules.structProto = require("google-protobuf/google/protobuf/struct_pb");
export const emptyProto: typeof SdkModules.emptyProto = require("google-protobuf/google/protobuf/empty_pb");
export const anyProto: typeof SdkModules.anyProto = require("google-protobuf/google/protobuf/any_pb");
/** The protocol's messages and services. */
export const providerProto: typeof SdkModules.providerProto = require("@pulumi/pulumi/proto/provider_pb");
export const providerGrpc: typeof SdkModules.providerGrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
export const pluginProto: typeof SdkModules.pluginProto = require("@pulumi/pulumi/proto/plugin_pb");
export const engineProto: typeof SdkModules.engineProto = require("@pulumi/pulumi/proto/engine_pb");
export const engineGrpc: typeof SdkModules.engineGrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
export const statusProto: typeof SdkModules.statusProto = require("@pulumi/pulumi/proto/status_pb");
