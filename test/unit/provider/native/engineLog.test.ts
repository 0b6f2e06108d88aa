/**
 * The plugin's progress lines (src/provider/native/engineLog.ts), encoded by its own codec,
 * received by an engine served with the SDK's generated `EngineService` (google-protobuf's
 * messages, as the engine's side reads them).
 */
import { engineLog } from "../../../../src/provider/native/engineLog";
import { emptyProto, engineGrpc, engineProto, grpc } from "../../../kit/sdkStubs";

/* eslint-disable @typescript-eslint/no-explicit-any -- the protocol's generated messages have no types here */

test("log: severity, message and URN → the engine's LogRequest; a line without a URN → none", async () => {
  const received: any[] = [];
  let twoLines: () => void = () => undefined;
  const got = new Promise<void>((resolve) => (twoLines = resolve));
  const server = new grpc.Server();
  server.addService(engineGrpc.EngineService, {
    log: (call: any, done: any) => {
      received.push(call.request);
      done(null, new emptyProto.Empty());
      if (received.length === 2) twoLines();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  try {
    const log = engineLog(`127.0.0.1:${port}`);
    log.log("warning", "the machine goes with its disk — ✓", "urn:pulumi:dev::p::vmapi:index:Machine::box");
    log.log("info", "waiting");
    await got;
    const lines = received
      .map((r) => [r.getSeverity(), r.getMessage(), r.getUrn()])
      .sort((a, b) => a[0] - b[0]);
    expect(lines).toEqual([
      [engineProto.LogSeverity.INFO, "waiting", ""],
      [
        engineProto.LogSeverity.WARNING,
        "the machine goes with its disk — ✓",
        "urn:pulumi:dev::p::vmapi:index:Machine::box",
      ],
    ]);
  } finally {
    server.forceShutdown();
  }
});
