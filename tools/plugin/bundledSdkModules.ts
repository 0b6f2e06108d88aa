/**
 * src/provider/native/sdkModules.ts as the plugin's bundle has it (tools/plugin/bundle.ts puts this
 * module in its place): the same modules, required by name so that the bundler takes them in. The
 * bundler resolves `@grpc/grpc-js` from the SDK's folder, as sdkModules.ts does at run time, so
 * the bundle holds the copy the SDK uses. The types tie the two lists: a module added there and
 * not here fails `npm run typecheck`.
 */
import type * as SdkModules from "../../src/provider/native/sdkModules";
import type * as Bundled from "./bundledSdkModules";

/** What sdkModules.ts exports and this module does not: nothing, or the typecheck fails below. */
type Missing = Exclude<keyof typeof SdkModules, keyof typeof Bundled>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/** `@grpc/grpc-js`. */
export const grpc: typeof SdkModules.grpc = require("@grpc/grpc-js");
