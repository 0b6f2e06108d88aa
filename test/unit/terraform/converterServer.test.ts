/**
 * The converter's server on the plugin's own gRPC (provider/native/transport/grpc.ts), called as
 * the CLI calls it: grpc-js's client and the SDK's converter_pb on the other side. Its port is
 * printed on fd 1; GetPluginInfo answers the version it was handed; ConvertState answers
 * convertState's diagnostics (here states that send nothing to the API); the Converter's other
 * methods are UNIMPLEMENTED.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type * as net from "net";
import { serveConverter } from "../../../src/terraform/converterServer";
import { emptyProto, grpc, pluginProto, unaryCall } from "../../kit/sdkStubs";

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated stubs and their messages come without types */
const converterProto = require("@pulumi/pulumi/proto/converter_pb") as any;
const { ConverterClient } = require("@pulumi/pulumi/proto/converter_grpc_pb") as any;

let served: { port: number; server: net.Server };
let printed: string[];
let client: InstanceType<typeof ConverterClient>;

beforeAll(async () => {
  printed = [];
  // The module itself (the server's `import * as fs` reads it through getters): its writeSync swapped for the start.
  const nodeFs = require("fs") as typeof fs;
  const writeSync = nodeFs.writeSync;
  nodeFs.writeSync = ((fd: number, text: string) => {
    printed.push(`${fd}:${text}`);
    return text.length;
  }) as typeof fs.writeSync;
  try {
    served = await serveConverter({ version: "9.8.7" });
  } finally {
    nodeFs.writeSync = writeSync;
  }
  client = new ConverterClient(`127.0.0.1:${served.port}`, grpc.credentials.createInsecure());
});

afterAll(() => {
  client?.close();
  served?.server.close();
});

/** A unary call of the client's `name` with `request`. */
function call<T>(name: string, request: unknown): Promise<T> {
  return unaryCall<T>(client, name, request);
}

test("the port → printed on fd 1, a line of its own", () => {
  expect(printed).toEqual([`1:${served.port}\n`]);
});

test("GetPluginInfo → the version handed in", async () => {
  const answer = await new Promise<any>((resolve, reject) =>
    client.makeUnaryRequest(
      "/pulumirpc.Converter/GetPluginInfo",
      (m: any) => Buffer.from(m.serializeBinary()),
      (b: Buffer) => pluginProto.PluginInfo.deserializeBinary(new Uint8Array(b)),
      new emptyProto.Empty(),
      (err: Error | null, info: unknown) => (err ? reject(err) : resolve(info)),
    ),
  );
  expect(answer.getVersion()).toBe("9.8.7");
});

test("ConvertState of a state file that is not there → an error diagnostic naming it, no resource", async () => {
  const missing = path.join(os.tmpdir(), `vmapi-no-such-${process.pid}.tfstate`);
  const request = new converterProto.ConvertStateRequest();
  request.setArgsList([missing]);
  const answer = await call<any>("convertState", request);
  expect(answer.getResourcesList()).toEqual([]);
  const diagnostics = answer.getDiagnosticsList();
  expect(diagnostics).toHaveLength(1);
  expect(diagnostics[0].getSeverity()).toBe(1);
  expect(`${diagnostics[0].getSummary()}; ${diagnostics[0].getDetail()}`).toBe(
    "the state; cannot be read (ENOENT)",
  );
  expect(diagnostics[0].getSubject().getFilename()).toBe(missing);
});

test("ConvertState of a state that is not JSON → an error diagnostic, no resource", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-conv-"));
  try {
    const file = path.join(dir, "bad.tfstate");
    fs.writeFileSync(file, "not json");
    const request = new converterProto.ConvertStateRequest();
    request.setArgsList([file]);
    const answer = await call<any>("convertState", request);
    expect(answer.getResourcesList()).toEqual([]);
    expect(answer.getDiagnosticsList().map((d: any) => d.getSeverity())).toEqual([1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("ConvertProgram (pulumi convert) → UNIMPLEMENTED", async () => {
  const request = new converterProto.ConvertProgramRequest();
  await expect(call("convertProgram", request)).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
});
