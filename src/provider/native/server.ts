/**
 * The gRPC service of the plugin, on the SDK's own generated stubs: each request decoded to plain
 * values for `NativeProvider`, each answer (or failure) encoded as the protocol wants it. A
 * resource that was created but did not settle fails with `ErrorResourceInitFailed`, so the
 * engine keeps it in the stack and the next `up` carries on, as the dynamic door's partial
 * failures do. No handler lets an exception escape: a failure fails its request, never the process.
 */
import type { ServerUnaryCall, sendUnaryData } from "@grpc/grpc-js";
import { ConfigurationError } from "../../client/core/errors";
import type * as SettingsModule from "../account/settings";
import type { ProviderSettings } from "../account/settings";
import { fromWire, toWire } from "./wireValues";
import {
  anyProto,
  emptyProto,
  grpc,
  pluginProto,
  providerProto,
  statusProto,
  structProto,
} from "./sdkModules";
import type { NativeProvider, WireResult } from "./nativeProvider";
import type { NativeSchema } from "./schemaFile";

/* eslint-disable @typescript-eslint/no-explicit-any -- the protocol messages pass through as the generated stubs give them */

type Unary = (call: ServerUnaryCall<any, any>, done: sendUnaryData<any>) => void;

/** The provider's settings as the configuration carries them (`vmapi:config:<name>` or the provider's inputs). */
const SETTINGS = ["apiKey", "baseUrl", "pollScale"] as const;

/**
 * The service's handlers, by the method names of `ResourceProviderService`. `providerOf` gives the
 * provider when a request first needs it (main.ts loads it then); the plugin's identity, its schema
 * and its configuration's check need none.
 */
export function serviceHandlers(
  providerOf: () => NativeProvider,
  schema: NativeSchema,
): Record<string, Unary> {
  return {
    getPluginInfo: answer(() => {
      const info = new pluginProto.PluginInfo();
      info.setVersion(schema.version);
      return info;
    }),
    getSchema: answer(() => {
      const response = new providerProto.GetSchemaResponse();
      response.setSchema(schema.text);
      return response;
    }),
    checkConfig: answer((req) => {
      const news = fromWire(struct(req.getNews()));
      const failures = configFailures(news.props);
      const response = new providerProto.CheckResponse();
      response.setInputs(
        structProto.Struct.fromJavaScript(toWire(news.props, [...news.secretKeys, "apiKey"])),
      );
      response.setFailuresList(failures.map(checkFailure));
      return response;
    }),
    diffConfig: answer((req) => {
      const olds = fromWire(struct(req.getOlds())).props;
      const news = fromWire(struct(req.getNews())).props;
      const changed = SETTINGS.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      const response = new providerProto.DiffResponse();
      // Another key or endpoint is a setting of the provider, never a reason to replace machines.
      response.setChanges(
        changed.length > 0
          ? providerProto.DiffResponse.DiffChanges.DIFF_SOME
          : providerProto.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setDiffsList(changed);
      return response;
    }),
    configure: answer((req) => {
      providerOf().configure(settingsOf(req));
      const response = new providerProto.ConfigureResponse();
      response.setAcceptsecrets(true);
      // Creates and updates of a preview are answered here, from the inputs: nothing is sent.
      response.setSupportspreview(true);
      response.setAcceptresources(false);
      response.setAcceptoutputs(false);
      return response;
    }),
    check: answer(async (req) => {
      const result = await providerOf().check(
        req.getUrn(),
        struct(req.getOlds()),
        struct(req.getNews()),
        Buffer.from(req.getRandomseed_asU8()),
      );
      const response = new providerProto.CheckResponse();
      response.setInputs(structProto.Struct.fromJavaScript(result.inputs));
      response.setFailuresList(result.failures.map(checkFailure));
      return response;
    }),
    diff: answer(async (req) => {
      const diff = await providerOf().diff(
        req.getUrn(),
        req.getId(),
        struct(req.getOlds()),
        struct(req.getNews()),
      );
      const response = new providerProto.DiffResponse();
      const { DiffChanges } = providerProto.DiffResponse;
      response.setChanges(diff.changes ? DiffChanges.DIFF_SOME : DiffChanges.DIFF_NONE);
      response.setReplacesList(diff.replaces);
      response.setDeletebeforereplace(diff.deleteBeforeReplace);
      response.setDiffsList(diff.diffs);
      response.setHasdetaileddiff(true);
      const detailed = response.getDetaileddiffMap();
      for (const [key, change] of Object.entries(diff.detailedDiff)) {
        const property = new providerProto.PropertyDiff();
        property.setKind(change.kind);
        property.setInputdiff(change.inputDiff);
        detailed.set(key, property);
      }
      return response;
    }),
    create: answer(async (req) => {
      const provider = providerOf();
      const created = req.getPreview()
        ? provider.previewCreate(req.getUrn(), struct(req.getProperties()))
        : await provider.create(req.getUrn(), struct(req.getProperties()), req.getTimeout());
      const response = new providerProto.CreateResponse();
      response.setId(created.id ?? "");
      response.setProperties(structProto.Struct.fromJavaScript(created.properties ?? {}));
      return response;
    }),
    read: answer(async (req) => {
      const read: WireResult = await providerOf().read(
        req.getUrn(),
        req.getId(),
        struct(req.getProperties()),
      );
      const response = new providerProto.ReadResponse();
      response.setId(read.id ?? "");
      if (read.properties) response.setProperties(structProto.Struct.fromJavaScript(read.properties));
      if (read.inputs) response.setInputs(structProto.Struct.fromJavaScript(read.inputs));
      return response;
    }),
    update: answer(async (req) => {
      const provider = providerOf();
      const updated = req.getPreview()
        ? provider.previewUpdate(req.getUrn(), struct(req.getOlds()), struct(req.getNews()))
        : await provider.update(
            req.getUrn(),
            req.getId(),
            struct(req.getOlds()),
            struct(req.getNews()),
            req.getTimeout(),
          );
      const response = new providerProto.UpdateResponse();
      response.setProperties(structProto.Struct.fromJavaScript(updated.properties));
      return response;
    }),
    delete: answer(async (req) => {
      await providerOf().delete(req.getUrn(), req.getId(), struct(req.getProperties()), req.getTimeout());
      return new emptyProto.Empty();
    }),
    invoke: answer(async (req) => {
      const result = await providerOf().invoke(req.getTok(), struct(req.getArgs()));
      const response = new providerProto.InvokeResponse();
      response.setReturn(structProto.Struct.fromJavaScript(result.outputs));
      return response;
    }),
    cancel: answer(() => new emptyProto.Empty()),
    attach: answer(() => new emptyProto.Empty()),
    getMapping: answer(() => new providerProto.GetMappingResponse()),
    getMappings: answer(() => new providerProto.GetMappingsResponse()),
  };
}

/** A handler from a function of the request; what it throws becomes the request's failure. */
function answer(body: (req: any) => unknown): Unary {
  return (call, done) => {
    Promise.resolve()
      .then(() => body(call.request))
      .then(
        (response) => done(null, response),
        (err: unknown) => {
          // Every request is answered: a failure that cannot be encoded is answered plainly.
          let answered: ReturnType<typeof failure>;
          try {
            answered = failure(err);
          } catch {
            answered = {
              code: grpc.status.UNKNOWN,
              details: err instanceof Error ? err.message : String(err),
            };
          }
          done(answered, null);
        },
      );
  };
}

/**
 * A failure as the engine reads it; a partial failure (an error with `id` and `properties`: the
 * resource exists) carries `ErrorResourceInitFailed`, so the engine keeps it in the stack.
 */
function failure(err: unknown): {
  code: number;
  details: string;
  metadata?: InstanceType<typeof grpc.Metadata>;
} {
  const message = err instanceof Error ? err.message : String(err);
  const partial = err as { id?: unknown; properties?: Record<string, unknown>; reasons?: string[] };
  if (typeof partial?.id !== "string" || partial.id === "")
    return { code: grpc.status.UNKNOWN, details: message };
  const detail = new providerProto.ErrorResourceInitFailed();
  detail.setId(partial.id);
  detail.setProperties(structProto.Struct.fromJavaScript(partial.properties ?? {}));
  detail.setReasonsList(partial.reasons ?? [message]);
  const packed = new anyProto.Any();
  packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusProto.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(message);
  status.addDetails(packed);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

function struct(value: any): Record<string, unknown> {
  return value ? (value.toJavaScript() as Record<string, unknown>) : {};
}

function checkFailure(f: { property: string; reason: string }): any {
  const failure = new providerProto.CheckFailure();
  failure.setProperty(f.property);
  failure.setReason(f.reason);
  return failure;
}

/**
 * The settings of a `configure` request: the provider's inputs when the engine sends them (with
 * the key marked secret), else the variables `vmapi:config:<name>`. Values stay in memory.
 */
function settingsOf(req: any): ProviderSettings {
  const args = req.getArgs() ? fromWire(struct(req.getArgs())).props : undefined;
  const variables = req.getVariablesMap();
  const settings: ProviderSettings = {};
  for (const name of SETTINGS) {
    const value = args?.[name] ?? variables.get(`vmapi:config:${name}`);
    if (value !== undefined && value !== null && value !== "") settings[name] = String(value);
  }
  return settings;
}

/**
 * Failures of the provider's configuration, each naming its setting. The settings' rules (zod's)
 * load at the first check, not with the server: the plugin's first answer and the process that
 * only serves the schema need none of them.
 */
function configFailures(props: Record<string, unknown>): { property: string; reason: string }[] {
  const settings: ProviderSettings = {};
  for (const name of SETTINGS) if (props[name] !== undefined) settings[name] = String(props[name]);
  const { checkSettings } = require("../account/settings") as typeof SettingsModule;
  try {
    checkSettings(settings);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigurationError)) throw err;
    const property = SETTINGS.find((name) => err.message.includes(name)) ?? "apiKey";
    return [{ property, reason: err.message }];
  }
}
