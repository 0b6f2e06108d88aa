#!/usr/bin/env node
/**
 * `pulumi-converter-vmapi`: the converter plugin `pulumi import --from vmapi <state>` starts
 * (plugin/pulumi-converter-vmapi runs node on this file). It serves Pulumi's `Converter` service
 * (`ConvertState` only: `pulumi convert` has nothing to convert here) on a free port of
 * 127.0.0.1 and prints the port on stdout, as the CLI expects of every plugin. What it answers is
 * convertState.ts's.
 *
 * gRPC comes from the program's `@pulumi/pulumi`, as the resource plugin takes it
 * (provider/native/sdkModules.ts): `@grpc/grpc-js` is the SDK's dependency, not ours. The
 * release's single executable serves the converter too, when started under the converter's name
 * (converterHook.ts): it hands in its own bundled grpc-js and version.
 */
import * as fs from "fs";
import * as path from "path";
import type * as GrpcModule from "@grpc/grpc-js";
import { convertState } from "./convertState";
import {
  decodeConvertStateRequest,
  decodeEmpty,
  encodeConvertStateResponse,
  encodePluginInfo,
  type ConvertStateRequest,
  type ConvertStateResponse,
} from "./converterMessages";

/** What the converter is served with: gRPC, and the version GetPluginInfo answers. */
export interface ConverterRuntime {
  grpc: typeof GrpcModule;
  version: string;
}

/** The package's version, from its package.json (outside a single executable). */
function packageVersion(): string {
  const file = path.join(__dirname, "..", "..", "package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

function grpcRuntime(): typeof GrpcModule {
  const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  return require(require.resolve("@grpc/grpc-js", { paths: [sdkRoot] })) as typeof GrpcModule;
}

/** One unary method of the `pulumirpc.Converter` service, carried by the converter's own codec. */
function method<Req, Res>(name: string, decode: (b: Buffer) => Req, encode: (v: Res) => Buffer) {
  return {
    path: `/pulumirpc.Converter/${name}`,
    requestStream: false,
    responseStream: false,
    originalName: name[0].toLowerCase() + name.slice(1),
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize: decode,
    responseSerialize: encode,
    responseDeserialize: () => ({}) as Res,
  };
}

/** Serves the converter; resolves with the port once it is printed. */
export async function serveConverter(runtime?: ConverterRuntime): Promise<number> {
  const grpc = runtime?.grpc ?? grpcRuntime();
  const version = runtime?.version ?? packageVersion();
  const server = new grpc.Server();
  const service = {
    convertState: method<ConvertStateRequest, ConvertStateResponse>(
      "ConvertState",
      decodeConvertStateRequest,
      encodeConvertStateResponse,
    ),
    getPluginInfo: method("GetPluginInfo", decodeEmpty, encodePluginInfo),
  };
  const io = { readFile: (file: string) => fs.readFileSync(file, "utf8"), env: process.env };
  server.addService(service as unknown as GrpcModule.ServiceDefinition, {
    convertState: (
      call: GrpcModule.ServerUnaryCall<ConvertStateRequest, ConvertStateResponse>,
      done: GrpcModule.sendUnaryData<ConvertStateResponse>,
    ) => {
      convertState(call.request.args, io).then(
        (answer) => done(null, answer),
        (err: unknown) => done({ code: grpc.status.INTERNAL, details: (err as Error).message }),
      );
    },
    getPluginInfo: (_call: unknown, done: GrpcModule.sendUnaryData<string>) => done(null, version),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  process.stdout.write(`${port}\n`);
  return port;
}

if (require.main === module) {
  serveConverter().catch((err: unknown) => {
    process.stderr.write(`pulumi-converter-vmapi: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
