/**
 * The converter plugin's server: Pulumi's `Converter` service (`ConvertState` and
 * `GetPluginInfo`; `pulumi convert` has nothing to convert here, and its methods are answered
 * UNIMPLEMENTED) on a free port of 127.0.0.1, the port printed on stdout as the CLI expects of
 * every plugin. What it answers is convertState.ts's. It is served on the resource plugin's own
 * unary gRPC over HTTP/2 (provider/native/transport/grpc.ts: Node's `net`, no grpc-js), with the
 * version its entry hands in: package.json's under node (converterMain.ts), the release's in its
 * single executable (converterHook.ts, called by the plugin's entry).
 */
import * as fs from "fs";
import type * as net from "net";
import { codecs } from "../provider/native/providerMessages";
import {
  GrpcFailure,
  servedMethod,
  serveUnary,
  Status,
  type UnaryMethod,
} from "../provider/native/transport/grpc";
import { convertState } from "./convertState";
import {
  decodeConvertStateRequest,
  encodeConvertStateResponse,
  type ConvertStateRequest,
} from "./converterMessages";

/** What the converter is served with: the version GetPluginInfo answers. */
export interface ConverterRuntime {
  version: string;
}

/** The largest `ConvertStateRequest` read: its arguments only (the state is read from its file). */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** The service this plugin serves. */
const SERVICE = "pulumirpc.Converter";

/** The `Converter` service's methods this plugin answers. */
export const CONVERTER_METHODS: Readonly<Record<string, UnaryMethod>> = {
  convertState: servedMethod(SERVICE, "ConvertState", decodeConvertStateRequest, encodeConvertStateResponse),
  getPluginInfo: servedMethod(SERVICE, "GetPluginInfo", codecs.Empty.decode, codecs.PluginInfo.encode),
};

/** Serves the converter and prints its port on stdout; resolves with the port and the server once printed. */
export async function serveConverter({
  version,
}: ConverterRuntime): Promise<{ port: number; server: net.Server }> {
  const io = { readFile: (file: string) => fs.readFileSync(file, "utf8"), env: process.env };
  const served = await serveUnary(
    CONVERTER_METHODS,
    {
      convertState: async (request: ConvertStateRequest) => {
        try {
          return await convertState(request.args, io);
        } catch (err) {
          // A state's problems are answered as diagnostics; this is what convertState did not foresee.
          throw new GrpcFailure(Status.INTERNAL, err instanceof Error ? err.message : String(err));
        }
      },
      getPluginInfo: () => ({ version }),
    },
    { maxReceiveBytes: MAX_REQUEST_BYTES },
  );
  // Straight to the descriptor, as the resource plugin prints its port (provider/native/main.ts).
  fs.writeSync(1, `${served.port}\n`);
  return served;
}
