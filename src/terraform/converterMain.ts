#!/usr/bin/env node
/**
 * `pulumi-converter-vmapi` under node: the converter plugin `pulumi import --from vmapi <state>`
 * starts (plugin/pulumi-converter-vmapi runs node on this file). It serves converterServer.ts
 * with gRPC from the program's `@pulumi/pulumi`, as the resource plugin takes it
 * (provider/native/sdkModules.ts: `@grpc/grpc-js` is the SDK's dependency, not ours), and the
 * package's version.
 */
import * as fs from "fs";
import * as path from "path";
import type * as GrpcModule from "@grpc/grpc-js";
import { serveConverter } from "./converterServer";

/** The package's version, from its package.json. */
function packageVersion(): string {
  const file = path.join(__dirname, "..", "..", "package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

/** `@grpc/grpc-js`, resolved from the SDK's folder. */
function sdkGrpc(): typeof GrpcModule {
  const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  return require(require.resolve("@grpc/grpc-js", { paths: [sdkRoot] })) as typeof GrpcModule;
}

serveConverter({ grpc: sdkGrpc(), version: packageVersion() }).catch((err: unknown) => {
  process.stderr.write(`pulumi-converter-vmapi: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
