/**
 * What the plugin loads before it prints its port (src/provider/native/main.ts): its own gRPC
 * (transport/), its own codec, the server and the schema, never grpc-js, google-protobuf or the
 * SDK's generated stubs (the codec carries every method) nor the provider's stack (zod, axios, the resource
 * implementations), nor the converter and the policy pack's analyzer the same executable serves under their names (only their
 * hooks, terraform/converterHook.ts and policy/analyzerHook.ts). Pulumi YAML starts the plugin only to read its schema, and every start
 * waits on this before the engine's first answer. The plugin runs as the npm package runs it (here
 * under ts-node), and the modules it holds when it first writes to stdout are listed.
 */
import * as path from "path";
import { loadedModules, WRITE_LOADED } from "../../../kit/loadedModules";

/** The files the plugin had loaded when it printed its port. */
function loadedAtPort(): string[] {
  return loadedModules([
    "const loaded = () => {",
    `  ${WRITE_LOADED}`,
    "  process.exit(0);",
    "};",
    "const fs = require('fs');",
    "const writeSync = fs.writeSync;",
    "fs.writeSync = (fd, ...rest) => (fd === 1 ? loaded() : writeSync(fd, ...rest));",
    "process.stdout.write = loaded;",
    "require('./src/provider/native/main.ts');",
  ]);
}

describe("the plugin's start", () => {
  it("port printed → the server, its transport and the codec loaded; grpc-js, google-protobuf, the stubs, zod, axios, the provider, the converter and the analyzer not", () => {
    const loaded = loadedAtPort();
    expect(loaded).toContain(path.join("src", "provider", "native", "server.ts"));
    expect(loaded).toContain(path.join("src", "provider", "native", "transport", "http2.ts"));
    expect(loaded).toContain(path.join("src", "provider", "native", "providerMessages.ts"));
    expect(
      loaded.filter((file) => /node_modules\/(@grpc\/|google-protobuf|@pulumi\/pulumi\/proto)\//.test(file)),
    ).toEqual([]);
    expect(loaded.filter((file) => /node_modules\/(zod|axios)\//.test(file))).toEqual([]);
    expect(
      loaded.filter((file) => /^src\/provider\/(native\/nativeProvider|shared\/settings)\.ts$/.test(file)),
    ).toEqual([]);
    // The converter's hook (it imports only `path`), never the converter it would serve.
    expect(loaded.filter((file) => file.startsWith(path.join("src", "terraform")))).toEqual([
      path.join("src", "terraform", "converterHook.ts"),
    ]);
    // The policy pack's hook (it imports only `path`), never the analyzer and its policies.
    expect(loaded.filter((file) => file.startsWith(path.join("src", "policy")))).toEqual([
      path.join("src", "policy", "analyzerHook.ts"),
    ]);
  });
});
