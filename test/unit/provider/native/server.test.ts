/**
 * The plugin's gRPC handlers (src/provider/native/server.ts) with the SDK's own protobuf messages,
 * as the engine sends them, and no engine: each request encoded by google-protobuf and decoded by
 * the plugin's service (its codec where main.ts gives it), each answer encoded by the service and
 * decoded by google-protobuf, and each failure as the protocol wants it. The real NativeProvider answers what needs no
 * API (configuration, MachineRestart's check, diffs, previews); a recording one stands in where
 * an answer would need the API, so what the handler passes and returns is seen exactly.
 */
import { NativeProvider } from "../../../../src/provider/native/nativeProvider";
import { shippedSchema } from "../../../../src/provider/native/schemaFile";
import {
  emptyProto,
  pluginProto,
  providerGrpc,
  providerProto,
  statusProto,
  structProto,
  grpc,
} from "../../../kit/sdkStubs";
import { providerService } from "../../../../src/provider/native/providerMessages";
import { serviceHandlers } from "../../../../src/provider/native/server";
import { DiffKind } from "../../../../src/provider/native/detailedDiff";
import { providerContext } from "../../../../src/provider/account/context";
import { UNKNOWN } from "../../../../src/provider/shared/unknown";

/* eslint-disable @typescript-eslint/no-explicit-any -- the protocol's generated messages have no types here */

const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const secret = (value: unknown) => ({ ...SIG, value });
const schema = shippedSchema();
const MACHINE = "urn:pulumi:dev::p::vmapi:index:Machine::box";
const RESTART = "urn:pulumi:dev::p::vmapi:index:MachineRestart::again";
const SETTINGS = { apiKey: "key-1", baseUrl: "http://127.0.0.1:9", pollScale: "0.5" };

/** The SDK's service (google-protobuf's messages: the engine's side) and the plugin's own (its codec). */
const engineSide = providerGrpc.ResourceProviderService;
const pluginSide: Record<string, any> = providerService();

/** Calls handler `name` with `request` through the wire both ways; resolves with its error or its answer. */
function call(provider: unknown, name: string, request: any): Promise<{ err: any; response: any }> {
  const handler = serviceHandlers(() => provider as NativeProvider, schema)[name];
  const decoded = pluginSide[name].requestDeserialize(engineSide[name].requestSerialize(request));
  return Promise.resolve(handler(decoded as never)).then(
    (response: any) => ({
      err: null,
      response: engineSide[name].responseDeserialize(pluginSide[name].responseSerialize(response)),
    }),
    (err: any) => ({ err, response: undefined }),
  );
}

const struct = (value: Record<string, unknown>) => structProto.Struct.fromJavaScript(value);

/** The real provider, configured through the handler as the engine does. */
async function configured(): Promise<NativeProvider> {
  const provider = new NativeProvider(providerContext(), { log: () => undefined }, schema);
  const request = new providerProto.ConfigureRequest();
  request.setArgs(struct({ ...SETTINGS, apiKey: secret(SETTINGS.apiKey) }));
  const { err, response } = await call(provider, "configure", request);
  expect(err).toBeNull();
  expect(response.getAcceptsecrets()).toBe(true);
  expect(response.getSupportspreview()).toBe(true);
  return provider;
}

/** A provider whose methods record their arguments and answer `answers[method]`. */
function recording(answers: Record<string, (...args: any[]) => unknown>) {
  const calls: Record<string, unknown[]> = {};
  const provider = new Proxy(
    {},
    {
      get:
        (_, method: string) =>
        (...args: unknown[]) => {
          calls[method] = args;
          return answers[method]?.(...args);
        },
    },
  );
  return { provider, calls };
}

test("the plugin's service: each method the SDK's (path, unary), each with a handler; the SDK's others not registered", () => {
  const handlers = serviceHandlers(() => ({}) as NativeProvider, schema);
  expect(Object.keys(pluginSide).sort()).toEqual(Object.keys(handlers).sort());
  for (const [name, method] of Object.entries(pluginSide)) {
    const { path, requestStream, responseStream } = engineSide[name];
    expect([name, method.path, method.requestStream, method.responseStream]).toEqual([
      name,
      path,
      requestStream,
      responseStream,
    ]);
  }
  const unregistered = Object.keys(engineSide).filter((name) => !(name in pluginSide));
  expect(unregistered.sort()).toEqual(["call", "construct", "handshake", "list", "parameterize"]);
});

test("cancel, attach, getMapping(s) → empty answers, as the SDK's empty messages encode", async () => {
  expect((await call({}, "cancel", new emptyProto.Empty())).response).toBeInstanceOf(emptyProto.Empty);
  const attach = new pluginProto.PluginAttach();
  attach.setAddress("127.0.0.1:1");
  expect((await call({}, "attach", attach)).err).toBeNull();
  const mappingRequest = new providerProto.GetMappingRequest();
  mappingRequest.setKey("tf");
  const mapping = (await call({}, "getMapping", mappingRequest)).response;
  expect([mapping.getProvider(), mapping.getData_asU8().length]).toEqual(["", 0]);
  const mappingsRequest = new providerProto.GetMappingsRequest();
  mappingsRequest.setKey("tf");
  expect((await call({}, "getMappings", mappingsRequest)).response.getProvidersList()).toEqual([]);
});

test("getPluginInfo / getSchema → the shipped schema's version and text", async () => {
  const info = await call({}, "getPluginInfo", new emptyProto.Empty());
  expect(info.response).toBeInstanceOf(pluginProto.PluginInfo);
  expect(info.response.getVersion()).toBe(schema.version);
  const got = await call({}, "getSchema", new providerProto.GetSchemaRequest());
  expect(JSON.parse(got.response.getSchema())).toMatchObject({ name: "vmapi" });
});

test("checkConfig: a bad pollScale → a failure naming it; the key answered marked secret", async () => {
  const request = new providerProto.CheckRequest();
  request.setNews(struct({ apiKey: "key-1", pollScale: "7" }));
  const { response } = await call({}, "checkConfig", request);
  expect(response.getFailuresList().map((f: any) => [f.getProperty(), f.getReason()])).toEqual([
    ["pollScale", 'vmapi:pollScale must be a number in (0, 1] (got "7")'],
  ]);
  expect(response.getInputs().toJavaScript()).toEqual({ apiKey: secret("key-1"), pollScale: "7" });
});

test("diffConfig: another key → a change of the provider naming apiKey, never a replace; the same → none", async () => {
  const { DiffChanges } = providerProto.DiffResponse;
  const request = new providerProto.DiffRequest();
  request.setOlds(struct({ apiKey: secret("a"), baseUrl: "http://x" }));
  request.setNews(struct({ apiKey: secret("b"), baseUrl: "http://x" }));
  const changed = (await call({}, "diffConfig", request)).response;
  expect([changed.getChanges(), changed.getDiffsList(), changed.getReplacesList()]).toEqual([
    DiffChanges.DIFF_SOME,
    ["apiKey"],
    [],
  ]);
  request.setNews(struct({ apiKey: secret("a"), baseUrl: "http://x" }));
  expect((await call({}, "diffConfig", request)).response.getChanges()).toBe(DiffChanges.DIFF_NONE);
});

test("configure: settings from the variables `vmapi:config:<name>` when the engine sends no inputs", async () => {
  const { provider, calls } = recording({});
  const request = new providerProto.ConfigureRequest();
  request.getVariablesMap().set("vmapi:config:apiKey", "key-2");
  request.getVariablesMap().set("vmapi:config:baseUrl", "http://api.example");
  await call(provider, "configure", request);
  expect(calls.configure).toEqual([{ apiKey: "key-2", baseUrl: "http://api.example" }]);
});

test("check: a MachineRestart with a bad state → the failure naming `state`; inputs answered as they came, secrets marked, nothing internal", async () => {
  const request = new providerProto.CheckRequest();
  request.setUrn(RESTART);
  request.setNews(struct({ machineId: "ps1", triggers: [secret("t")], state: "sideways" }));
  const { err, response } = await call(await configured(), "check", request);
  expect(err).toBeNull();
  expect(response.getFailuresList().map((f: any) => f.getProperty())).toEqual(["state"]);
  const inputs = response.getInputs().toJavaScript();
  expect(inputs).toEqual({ machineId: "ps1", triggers: secret(["t"]), state: "sideways" });
});

test("check: the engine's random seed → passed on as bytes", async () => {
  const { provider, calls } = recording({ check: () => ({ inputs: {}, failures: [] }) });
  const request = new providerProto.CheckRequest();
  request.setUrn(MACHINE);
  request.setRandomseed(Uint8Array.from([1, 2, 255]));
  await call(provider, "check", request);
  expect(calls.check).toEqual([MACHINE, {}, {}, Buffer.from([1, 2, 255])]);
});

test("diff: a Machine's size and name change → DIFF_SOME, size replacing and name in place, as a detailed diff", async () => {
  const request = new providerProto.DiffRequest();
  request.setUrn(MACHINE);
  request.setId("ps1");
  const old = { region: "East Coast (NY2)", machineType: "C4", billingType: "hourly", templateId: "t1" };
  request.setOlds(struct({ ...old, size: 50, name: "a", machineId: "ps1" }));
  request.setNews(struct({ ...old, size: 100, name: "b" }));
  const { response } = await call(await configured(), "diff", request);
  expect(response.getChanges()).toBe(providerProto.DiffResponse.DiffChanges.DIFF_SOME);
  expect(response.getReplacesList()).toEqual(["size"]);
  expect(response.getDiffsList()).toEqual(["name", "size"]);
  expect(response.getHasdetaileddiff()).toBe(true);
  const detailed = Object.fromEntries(
    response
      .getDetaileddiffMap()
      .getEntryList()
      .map(([key, change]: [string, any[]]) => [key, change[0]]),
  );
  expect(detailed).toEqual({ name: DiffKind.UPDATE, size: DiffKind.UPDATE_REPLACE });
});

test("create, preview → answered from the inputs, nothing sent: outputs unknown, no id", async () => {
  const request = new providerProto.CreateRequest();
  request.setUrn(RESTART);
  request.setPreview(true);
  request.setProperties(struct({ machineId: "ps1", triggers: ["a"] }));
  const { err, response } = await call(await configured(), "create", request);
  expect(err).toBeNull();
  expect(response.getId()).toBe("");
  expect(response.getProperties().toJavaScript()).toMatchObject({
    machineId: "ps1",
    triggers: ["a"],
    restartedAt: UNKNOWN,
  });
});

test("create, update, delete → the engine's timeout (seconds) passed on with the properties", async () => {
  const { provider, calls } = recording({
    create: () => ({ id: "ps1", properties: { machineId: "ps1" } }),
    update: () => ({ properties: { machineId: "ps1" } }),
  });
  const create = new providerProto.CreateRequest();
  create.setUrn(MACHINE);
  create.setProperties(struct({ size: 50 }));
  create.setTimeout(420);
  const created = (await call(provider, "create", create)).response;
  expect([created.getId(), created.getProperties().toJavaScript()]).toEqual(["ps1", { machineId: "ps1" }]);
  expect(calls.create).toEqual([MACHINE, { size: 50 }, 420]);

  const update = new providerProto.UpdateRequest();
  update.setUrn(MACHINE);
  update.setId("ps1");
  update.setOlds(struct({ size: 50 }));
  update.setNews(struct({ size: 60 }));
  update.setTimeout(90);
  await call(provider, "update", update);
  expect(calls.update).toEqual([MACHINE, "ps1", { size: 50 }, { size: 60 }, 90]);

  const remove = new providerProto.DeleteRequest();
  remove.setUrn(MACHINE);
  remove.setId("ps1");
  remove.setProperties(struct({ machineId: "ps1" }));
  remove.setTimeout(30);
  expect((await call(provider, "delete", remove)).err).toBeNull();
  expect(calls.delete).toEqual([MACHINE, "ps1", { machineId: "ps1" }, 30]);
});

test("read: a refresh's stored inputs reach the provider beside the stored outputs; an import's read has none", async () => {
  const { provider, calls } = recording({
    read: () => ({ id: "ps1", properties: {}, inputs: { size: 50 } }),
  });
  const refresh = new providerProto.ReadRequest();
  refresh.setUrn(MACHINE);
  refresh.setId("ps1");
  refresh.setProperties(struct({ machineId: "ps1", size: 50, networkId: "n1" }));
  refresh.setInputs(struct({ size: 50 }));
  const { response } = await call(provider, "read", refresh);
  expect(calls.read).toEqual([MACHINE, "ps1", { machineId: "ps1", size: 50, networkId: "n1" }, { size: 50 }]);
  expect(response.getInputs().toJavaScript()).toEqual({ size: 50 });

  const imported = new providerProto.ReadRequest();
  imported.setUrn(MACHINE);
  imported.setId("ps1");
  await call(provider, "read", imported);
  expect(calls.read).toEqual([MACHINE, "ps1", {}, {}]);
});

test("read: the resource is gone → an empty id, no properties (the engine drops it)", async () => {
  const { provider } = recording({ read: () => ({}) });
  const request = new providerProto.ReadRequest();
  request.setUrn(MACHINE);
  request.setId("ps1");
  const { response } = await call(provider, "read", request);
  expect(response.getId()).toBe("");
  expect(response.getProperties()).toBeUndefined();
});

test("a create that made the machine but failed → ErrorResourceInitFailed in the status details, with its id, properties and reasons", async () => {
  const partial = Object.assign(new Error("did not become ready"), {
    id: "ps1",
    properties: { machineId: "ps1", name: secret("box") },
    reasons: ["did not become ready"],
  });
  const { provider } = recording({ create: () => Promise.reject(partial) });
  const request = new providerProto.CreateRequest();
  request.setUrn(MACHINE);
  const { err, response } = await call(provider, "create", request);
  expect(response).toBeUndefined();
  expect([err.code, err.details]).toEqual([grpc.status.UNKNOWN, "did not become ready"]);
  const status = statusProto.Status.deserializeBinary(err.metadata["grpc-status-details-bin"]);
  const [detail] = status.getDetailsList();
  expect(detail.getTypeName()).toBe("pulumirpc.ErrorResourceInitFailed");
  const failed = providerProto.ErrorResourceInitFailed.deserializeBinary(detail.getValue());
  expect(failed.getId()).toBe("ps1");
  expect(failed.getProperties().toJavaScript()).toEqual({ machineId: "ps1", name: secret("box") });
  expect(failed.getReasonsList()).toEqual(["did not become ready"]);
});

test("a failure that made nothing → UNKNOWN with the message, no details; the handler never throws", async () => {
  const { provider } = recording({
    invoke: () => {
      throw new Error("pulumi-vmapi: unknown function vmapi:index:getNothing");
    },
  });
  const request = new providerProto.InvokeRequest();
  request.setTok("vmapi:index:getNothing");
  const { err } = await call(provider, "invoke", request);
  expect([err.code, err.details, err.metadata]).toEqual([
    grpc.status.UNKNOWN,
    "pulumi-vmapi: unknown function vmapi:index:getNothing",
    {},
  ]);
});
