/**
 * The gRPC service of the plugin: each request decoded to plain values for `NativeProvider`, each
 * answer (or failure) encoded as the protocol wants it. The methods a resource goes through (and
 * every other, called once a run) take and answer the plain values of providerMessages.ts, whose
 * service definition (`providerService`) main.ts registers with them. A resource that was created but
 * did not settle fails with `ErrorResourceInitFailed`, so the engine keeps it in the stack and the
 * next `up` carries on, as the dynamic door's partial failures do. No handler lets an exception
 * escape: a failure fails its request, never the process.
 */
import { ConfigurationError } from "../../client/core/errors";
import type * as SettingsModule from "../account/settings";
import type { ProviderSettings } from "../account/settings";
import { fromWire, toWire } from "./wireValues";
import { GrpcFailure, Status, type UnaryHandler } from "./transport/grpc";
import {
  codecs,
  type CheckRequest,
  type ConfigureRequest,
  type ConfigureResponse,
  type GetMappingResponse,
  type GetMappingsResponse,
  type GetSchemaResponse,
  type PluginInfo,
  type CheckResponse,
  type CreateRequest,
  type CreateResponse,
  type DeleteRequest,
  type DiffRequest,
  type DiffResponse,
  type InvokeRequest,
  type InvokeResponse,
  type ReadRequest,
  type ReadResponse,
  type UpdateRequest,
  type UpdateResponse,
} from "./providerMessages";
import type { NativeProvider, WireResult } from "./nativeProvider";
import type { NativeSchema } from "./schemaFile";

/** pulumirpc.DiffResponse.DiffChanges. */
const DIFF_NONE = 1;
const DIFF_SOME = 2;

/** The status detail's type of a partial failure. */
const INIT_FAILED = "pulumirpc.ErrorResourceInitFailed";

/** The provider's settings as the configuration carries them (`vmapi:config:<name>` or the provider's inputs). */
const SETTINGS = ["apiKey", "baseUrl", "pollScale"] as const;

/**
 * The service's handlers, by the method names of `providerService` (providerMessages.ts). `providerOf` gives the
 * provider when a request first needs it (main.ts loads it then); the plugin's identity, its schema
 * and its configuration's check need none.
 */
export function serviceHandlers(
  providerOf: () => NativeProvider,
  schema: NativeSchema,
): Record<string, UnaryHandler> {
  return {
    getPluginInfo: answer((): PluginInfo => ({ version: schema.version })),
    getSchema: answer((): GetSchemaResponse => ({ schema: schema.text })),
    checkConfig: answer((req: CheckRequest): CheckResponse => {
      const news = fromWire(req.news);
      return {
        inputs: toWire(news.props, [...news.secretKeys, "apiKey"]),
        failures: configFailures(news.props),
      };
    }),
    diffConfig: answer((req: DiffRequest): DiffResponse => {
      const olds = fromWire(req.olds).props;
      const news = fromWire(req.news).props;
      const changed = SETTINGS.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      // Another key or endpoint is a setting of the provider, never a reason to replace machines.
      return {
        changes: changed.length > 0 ? DIFF_SOME : DIFF_NONE,
        diffs: changed,
        replaces: [],
        deleteBeforeReplace: false,
        detailedDiff: {},
        hasDetailedDiff: false,
      };
    }),
    configure: answer((req: ConfigureRequest): ConfigureResponse => {
      providerOf().configure(settingsOf(req));
      return {
        acceptSecrets: true,
        // Creates and updates of a preview are answered here, from the inputs: nothing is sent.
        supportsPreview: true,
        acceptResources: false,
        acceptOutputs: false,
      };
    }),
    check: answer(async (req: CheckRequest): Promise<CheckResponse> => {
      const result = await providerOf().check(req.urn, req.olds ?? {}, req.news ?? {}, req.randomSeed);
      return { inputs: result.inputs, failures: result.failures };
    }),
    diff: answer(async (req: DiffRequest): Promise<DiffResponse> => {
      const diff = await providerOf().diff(req.urn, req.id, req.olds ?? {}, req.news ?? {});
      return {
        changes: diff.changes ? DIFF_SOME : DIFF_NONE,
        replaces: diff.replaces,
        deleteBeforeReplace: diff.deleteBeforeReplace,
        diffs: diff.diffs,
        detailedDiff: diff.detailedDiff,
        hasDetailedDiff: true,
      };
    }),
    create: answer(async (req: CreateRequest): Promise<CreateResponse> => {
      const provider = providerOf();
      const created = req.preview
        ? provider.previewCreate(req.urn, req.properties ?? {})
        : await provider.create(req.urn, req.properties ?? {}, req.timeout);
      return { id: created.id ?? "", properties: created.properties ?? {} };
    }),
    read: answer(async (req: ReadRequest): Promise<ReadResponse> => {
      const read: WireResult = await providerOf().read(
        req.urn,
        req.id,
        req.properties ?? {},
        req.inputs ?? {},
      );
      return { id: read.id ?? "", properties: read.properties, inputs: read.inputs };
    }),
    update: answer(async (req: UpdateRequest): Promise<UpdateResponse> => {
      const provider = providerOf();
      const updated = req.preview
        ? provider.previewUpdate(req.urn, req.olds ?? {}, req.news ?? {})
        : await provider.update(req.urn, req.id, req.olds ?? {}, req.news ?? {}, req.timeout);
      return { properties: updated.properties };
    }),
    delete: answer(async (req: DeleteRequest) => {
      await providerOf().delete(req.urn, req.id, req.properties ?? {}, req.timeout);
      return {};
    }),
    invoke: answer(async (req: InvokeRequest): Promise<InvokeResponse> => {
      const result = await providerOf().invoke(req.tok, req.args ?? {});
      return { return: result.outputs };
    }),
    cancel: answer(() => ({})),
    attach: answer(() => ({})),
    getMapping: answer((): GetMappingResponse => ({ provider: "", data: Buffer.alloc(0) })),
    getMappings: answer((): GetMappingsResponse => ({ providers: [] })),
  };
}

/** A handler from a function of the request; what it throws becomes the request's failure. */
function answer<Req>(body: (req: Req) => unknown): UnaryHandler {
  return async (req: Req) => {
    try {
      return await body(req);
    } catch (err) {
      // Every request is answered: a failure that cannot be encoded is answered plainly.
      let answered: GrpcFailure;
      try {
        answered = failure(err);
      } catch {
        answered = new GrpcFailure(Status.UNKNOWN, err instanceof Error ? err.message : String(err));
      }
      throw answered;
    }
  };
}

/**
 * A failure as the engine reads it; a partial failure (an error with `id` and `properties`: the
 * resource exists) carries `ErrorResourceInitFailed`, so the engine keeps it in the stack.
 */
function failure(err: unknown): GrpcFailure {
  const message = err instanceof Error ? err.message : String(err);
  const partial = err as { id?: unknown; properties?: Record<string, unknown>; reasons?: string[] };
  if (typeof partial?.id !== "string" || partial.id === "") return new GrpcFailure(Status.UNKNOWN, message);
  const detail = codecs.ErrorResourceInitFailed.encode({
    id: partial.id,
    properties: partial.properties ?? {},
    reasons: partial.reasons ?? [message],
  });
  const status = codecs.Status.encode({
    code: Status.UNKNOWN,
    message,
    details: [{ typeUrl: `type.googleapis.com/${INIT_FAILED}`, value: detail }],
  });
  return new GrpcFailure(Status.UNKNOWN, message, { "grpc-status-details-bin": status });
}

/**
 * The settings of a `configure` request: the provider's inputs when the engine sends them (with
 * the key marked secret), else the variables `vmapi:config:<name>`. Values stay in memory.
 */
function settingsOf(req: ConfigureRequest): ProviderSettings {
  const args = req.args ? fromWire(req.args).props : undefined;
  const settings: ProviderSettings = {};
  for (const name of SETTINGS) {
    const key = `vmapi:config:${name}`;
    const value = args?.[name] ?? (Object.hasOwn(req.variables, key) ? req.variables[key] : undefined);
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
