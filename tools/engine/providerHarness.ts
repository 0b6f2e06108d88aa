/**
 * Provider harness: drives `pulumi.dynamic` providers through the real dynamic-provider plugin
 * (`node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs`) over gRPC, the way the Pulumi engine
 * does, without the `pulumi` CLI. See docs/harness.md for what is and is not reproduced.
 *
 * Engine behaviour mirrored here was read from the Go engine (sdk/go/common/resource/plugin/
 * provider_plugin.go, rpc.go; pkg/resource/deploy/target.go) and the Node SDK in node_modules
 * (dynamic/index.js, cmd/dynamic-provider/index.js, runtime/rpc.js).
 *
 * Re-exports only; the code lives in ./harness/.
 */
export { PLUGIN_PATH, REPO_ROOT } from "./harness/sdk";
export {
  Secret,
  UNKNOWN,
  annotateSecrets,
  cloneProps,
  containsSecrets,
  isSecret,
  reveal,
  secret,
  type PropValue,
  type Props,
} from "./harness/values";
export { EngineError, HarnessUsageError, PartialFailureError, ProviderRpcError } from "./harness/errors";
export {
  PROVIDER_KEY,
  dynamicInputs,
  dynamicUrn,
  serializeProvider,
  serializeProviderLikeEngine,
  type SerializedProvider,
  type UrnOptions,
} from "./harness/serialize";
export type { LogEntry } from "./harness/engineLog";
export type {
  CheckResult,
  ConfigValue,
  CreateResult,
  DiffResult,
  Protocol,
  ProviderPlugin,
  ReadResult,
  StartOptions,
  UpdateResult,
} from "./harness/pluginTypes";
export { startProviderPlugin } from "./harness/plugin";
