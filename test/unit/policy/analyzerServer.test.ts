/**
 * The policy pack's analyzer on the plugin's own gRPC and codec (src/policy/), called as the CLI
 * calls it: grpc-js's client and the SDK's analyzer_pb on the other side, so the hand-written
 * messages are held equal to google-protobuf's. GetAnalyzerInfo names every policy with its config
 * schema; Configure takes levels and parameters and refuses what the pack does not have
 * (INVALID_ARGUMENT); Analyze and AnalyzeStack answer the violations of both routes' types.
 */
import type * as net from "net";
import { serveAnalyzer } from "../../../src/policy/analyzerServer";
import { POLICIES } from "../../../src/policy/policies";
import { analyzerGrpc, analyzerProto, emptyProto, grpc, structProto, unaryCall } from "../../kit/sdkStubs";

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated stubs and their messages come without types */
let served: { port: number; server: net.Server };
let client: any;

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

beforeAll(async () => {
  const nodeFs = require("fs") as typeof import("fs");
  const writeSync = nodeFs.writeSync;
  nodeFs.writeSync = ((_fd: number, text: string) => text.length) as typeof nodeFs.writeSync;
  try {
    served = await serveAnalyzer({ version: "9.8.7" });
  } finally {
    nodeFs.writeSync = writeSync;
  }
  client = new analyzerGrpc.AnalyzerClient(`127.0.0.1:${served.port}`, grpc.credentials.createInsecure());
});

afterAll(() => {
  client?.close();
  served?.server.close();
});

/** A unary call of the client's `name` with `request`. */
function call<T>(name: string, request: unknown): Promise<T> {
  return unaryCall<T>(client, name, request);
}

/** Configures the pack: policy name → [level, properties]. */
function configure(config: Record<string, [number, Record<string, unknown>?]>): Promise<unknown> {
  const request = new analyzerProto.ConfigureAnalyzerRequest();
  const map = request.getPolicyconfigMap();
  for (const [name, [level, props]] of Object.entries(config)) {
    const c = new analyzerProto.PolicyConfig();
    c.setEnforcementlevel(level);
    if (props) c.setProperties(structProto.Struct.fromJavaScript(props));
    map.set(name, c);
  }
  return call("configure", request);
}

function analyzeRequest(type: string, name: string, props: Record<string, unknown>, protect = false): any {
  const request = new analyzerProto.AnalyzeRequest();
  request.setType(type);
  request.setName(name);
  request.setUrn(`urn:pulumi:dev::p::${type}::${name}`);
  request.setProperties(structProto.Struct.fromJavaScript(props));
  const options = new analyzerProto.AnalyzerResourceOptions();
  options.setProtect(protect);
  request.setOptions(options);
  return request;
}

function diagnostics(answer: any): { policy: string; level: number; urn: string; message: string }[] {
  return answer.getDiagnosticsList().map((d: any) => ({
    policy: d.getPolicyname(),
    level: d.getEnforcementlevel(),
    urn: d.getUrn(),
    message: d.getMessage(),
  }));
}

const GPU_MACHINE = {
  region: "East Coast (NY2)",
  machineType: "P5000",
  size: 50,
  billingType: "hourly",
  templateId: "tubsrv01",
  assignPublicIp: true,
};

test("GetAnalyzerInfo → the pack's name, version, support for config and every policy with its schema", async () => {
  const info = await call<any>("getAnalyzerInfo", new emptyProto.Empty());
  expect(info.getName()).toBe("vmapi");
  expect(info.getVersion()).toBe("9.8.7");
  expect(info.getSupportsconfig()).toBe(true);
  const policies = info.getPoliciesList();
  expect(policies.map((p: any) => p.getName())).toEqual(POLICIES.map((p) => p.name));
  const cost = policies.find((p: any) => p.getName() === "stack-monthly-cost");
  expect(cost.getPolicyType()).toBe(2);
  expect(cost.getEnforcementlevel()).toBe(0);
  expect(cost.getConfigschema().getProperties().toJavaScript()).toEqual({
    maxMonthly: { type: "number", minimum: 0 },
  });
});

test("GetPluginInfo → the version handed in", async () => {
  const answer = await new Promise<any>((resolve, reject) =>
    client.makeUnaryRequest(
      "/pulumirpc.Analyzer/GetPluginInfo",
      (m: any) => Buffer.from(m.serializeBinary()),
      (b: Buffer) =>
        require("@pulumi/pulumi/proto/plugin_pb").PluginInfo.deserializeBinary(new Uint8Array(b)),
      new emptyProto.Empty(),
      (err: Error | null, info: unknown) => (err ? reject(err) : resolve(info)),
    ),
  );
  expect(answer.getVersion()).toBe("9.8.7");
});

test("Configure: an unknown policy or property → INVALID_ARGUMENT naming it and what the pack has", async () => {
  await expect(configure({ "no-such-policy": [1] })).rejects.toMatchObject({
    code: 3,
    details: expect.stringContaining('unknown policy "no-such-policy"'),
  });
  await expect(configure({ "no-public-ip": [1, { allowed: true }] })).rejects.toMatchObject({
    code: 3,
    details: expect.stringContaining('no-public-ip: unknown property "allowed" (it takes: allowedNames)'),
  });
});

test("Analyze: a Machine of either route breaking configured rules → one diagnostic per policy, at its level, on its URN", async () => {
  await configure({
    all: [0],
    "allowed-regions": [1, { regions: ["Europe (AMS1)"] }],
    "allowed-machine-types": [0, { machineTypes: ["C4", "P5000"] }],
    "machine-monthly-cost": [1, { maxMonthly: 500 }],
    "gpu-shutdown-timeout": [1, {}],
    "no-public-ip": [0, { allowedNames: [] }],
    "protect-machines-with-disks": [2, {}],
  });
  for (const type of ["vmapi:index:Machine", "pulumi-nodejs:dynamic/vmapi:Machine"]) {
    const props = type.startsWith("pulumi-nodejs")
      ? { ...GPU_MACHINE, __provider: "exports.handler = ..." }
      : GPU_MACHINE;
    const answer = await call<any>("analyze", analyzeRequest(type, "box", props));
    expect(diagnostics(answer).map((d) => [d.policy, d.level])).toEqual([
      ["allowed-regions", 1],
      ["machine-monthly-cost", 1],
      ["gpu-shutdown-timeout", 1],
      ["no-public-ip", 0],
    ]);
    expect(diagnostics(answer)[0]).toMatchObject({
      urn: `urn:pulumi:dev::p::${type}::box`,
      message: 'region "East Coast (NY2)" is not allowed: use one of "Europe (AMS1)"',
    });
    expect(diagnostics(answer)[1].message).toContain("costs $574.40 a month");
  }
});

test("Analyze: the rules kept (allowed region, timeout set, no public IP, protected) → no diagnostic; another provider's resource → none", async () => {
  await configure({
    "allowed-regions": [1, { regions: ["East Coast (NY2)"] }],
    "gpu-shutdown-timeout": [1, { maxHours: 4 }],
    "protect-machines-with-disks": [1, {}],
    "machine-monthly-cost": [1, { maxMonthly: 1000 }],
  });
  const kept = { ...GPU_MACHINE, assignPublicIp: false, shutdownTimeoutInHours: 2 };
  expect(
    diagnostics(await call("analyze", analyzeRequest("vmapi:index:Machine", "box", kept, true))),
  ).toEqual([]);
  expect(
    diagnostics(await call("analyze", analyzeRequest("aws:s3/bucket:Bucket", "b", { region: "mars" }))),
  ).toEqual([]);
});

test("Analyze: a Script's text in plain text → script-text-secret; a secret text or one unknown in the preview → none", async () => {
  await configure({ "script-text-secret": [1] });
  const plain = await call<any>("analyze", analyzeRequest("vmapi:index:Script", "s", { scriptText: "echo" }));
  expect(diagnostics(plain).map((d) => d.policy)).toEqual(["script-text-secret"]);
  const secret = { scriptText: { ...SECRET, value: "echo" } };
  expect(diagnostics(await call("analyze", analyzeRequest("vmapi:index:Script", "s", secret)))).toEqual([]);
  const unknown = { scriptText: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" };
  expect(diagnostics(await call("analyze", analyzeRequest("vmapi:index:Script", "s", unknown)))).toEqual([]);
});

test("AnalyzeStack: the machines' monthly sum above stack-monthly-cost → one diagnostic without a URN; under it → none", async () => {
  const request = new analyzerProto.AnalyzeStackRequest();
  const machine = (name: string, type: string) => {
    const r = new analyzerProto.AnalyzerResource();
    r.setType(type);
    r.setName(name);
    r.setUrn(`urn:pulumi:dev::p::${type}::${name}`);
    r.setProperties(
      structProto.Struct.fromJavaScript({ ...GPU_MACHINE, machineType: "C4", billingType: "monthly" }),
    );
    return r;
  };
  request.setResourcesList([
    machine("a", "vmapi:index:Machine"),
    machine("b", "pulumi-nodejs:dynamic/vmapi:Machine"),
  ]);
  await configure({ "stack-monthly-cost": [1, { maxMonthly: 40 }] });
  const over = diagnostics(await call("analyzeStack", request));
  expect(over).toEqual([
    {
      policy: "stack-monthly-cost",
      level: 1,
      urn: "",
      message:
        "the stack's 2 machine(s) cost $50.00 a month, above the ceiling of $40.00: remove or shrink machines, or raise maxMonthly",
    },
  ]);
  await configure({ "stack-monthly-cost": [1, { maxMonthly: 50 }] });
  expect(diagnostics(await call("analyzeStack", request))).toEqual([]);
});

test("Remediate → no remediation; Handshake → UNIMPLEMENTED (the CLI goes on without it)", async () => {
  const remediated = await call<any>("remediate", analyzeRequest("vmapi:index:Machine", "box", GPU_MACHINE));
  expect(remediated.getRemediationsList()).toEqual([]);
  await expect(call("handshake", new analyzerProto.AnalyzerHandshakeRequest())).rejects.toMatchObject({
    code: 12,
  });
});
