/**
 * The converter plugin's server: Pulumi's `Converter` service (`ConvertState` and
 * `GetPluginInfo`; `pulumi convert` has nothing to convert here, and grpc-js answers its methods
 * UNIMPLEMENTED) on a free port of 127.0.0.1, the port printed on stdout as the CLI expects of
 * every plugin. What it answers is convertState.ts's. It is served with the gRPC runtime and the
 * version its entry hands in: the SDK's grpc-js under node (converterMain.ts), the bundled one in
 * the release's single executable (converterHook.ts).
 */
import * as fs from "fs";
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
export async function serveConverter({ grpc, version }: ConverterRuntime): Promise<number> {
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
