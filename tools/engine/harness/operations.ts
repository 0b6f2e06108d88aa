/**
 * The resource RPCs as the engine makes them (provider_plugin.go): secrets and unknowns kept or
 * stripped per the Configure answer, outputs unmarshaled and re-annotated, failures classified.
 */
import { randomBytes, randomUUID } from "crypto";
import type * as provprotoT from "@pulumi/pulumi/proto/provider_pb";
import { EngineError, HarnessUsageError } from "./errors";
import type {
  CheckResult,
  ConfigValue,
  CreateResult,
  DiffResult,
  ReadResult,
  UpdateResult,
} from "./pluginTypes";
import { provproto } from "./sdk";
import { urnParts } from "./serialize";
import { failure, noUnknowns, outputs, requireConfigured, rpcError, stripped, type Session } from "./session";
import { annotateSecrets, cloneProps, deepEqual, reveal, type Props } from "./values";
import { fromStruct, toStruct } from "./wire";

/** Configure with the stack config, as the default provider for `pulumi-nodejs` is configured. */
export async function configure(s: Session, config: Record<string, ConfigValue>): Promise<void> {
  // Default provider inputs for a dynamic provider = the whole stack config, namespaced keys,
  // secure values secret (target.go GetPackageConfig); Configure() in provider_plugin.go.
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) {
    if (!k.includes(":"))
      throw new HarnessUsageError(`config key "${k}" must be namespaced (e.g. vmapi:${k})`);
    const plain = reveal(v);
    variables[`pulumi-nodejs:config:${k}`] = typeof plain === "string" ? plain : JSON.stringify(plain);
  }
  const req = new provproto.ConfigureRequest()
    .setArgs(toStruct(config, { keepSecrets: true, keepUnknowns: true }, "Configure.inputs"))
    .setAcceptsecrets(true)
    .setAcceptresources(true)
    .setSendsOldInputs(true)
    .setSendsOldInputsToDelete(true)
    .setUrn(`urn:pulumi:${s.stack}::${s.project}::pulumi:providers:pulumi-nodejs::default`)
    .setName("default")
    .setType("pulumi:providers:pulumi-nodejs")
    .setId(randomUUID());
  for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
  const res = await s
    .call<provprotoT.ConfigureRequest, provprotoT.ConfigureResponse>("configure", req)
    .catch((e) => Promise.reject(rpcError("Configure", e)));
  s.protocol = {
    acceptSecrets: res.getAcceptsecrets(),
    acceptResources: res.getAcceptresources(),
    supportsPreview: res.getSupportspreview(),
    acceptOutputs: res.getAcceptoutputs(),
  };
}

/** Check: `news` validated against `olds`; the checked inputs and any failures. */
export async function check(
  s: Session,
  urn: string,
  olds: Props,
  news: Props,
  o: { preview?: boolean } = {},
): Promise<CheckResult> {
  const p = requireConfigured(s, "Check");
  const allowUnknowns = o.preview === true;
  if (!allowUnknowns) noUnknowns("Check", olds, news);
  const { name, type } = urnParts(urn);
  const req = new provproto.CheckRequest()
    .setUrn(urn)
    .setName(name)
    .setType(type)
    .setOlds(toStruct(olds, stripped(p, allowUnknowns), "Check.olds"))
    .setNews(toStruct(news, stripped(p, allowUnknowns), "Check.news"))
    .setRandomseed(new Uint8Array(randomBytes(32)));
  const res = await s
    .call<provprotoT.CheckRequest, provprotoT.CheckResponse>("check", req)
    .catch((e) => Promise.reject(rpcError("Check", e)));
  const inputs = fromStruct(
    res.getInputs(),
    { keepUnknowns: allowUnknowns, rejectUnknowns: !allowUnknowns },
    "Check.inputs",
  );
  if (!p.acceptSecrets) annotateSecrets(inputs, news);
  const failures = res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
  return { inputs, failures };
}

/** Diff: `olds` are the old OUTPUTS (state), as the engine sends them. */
export async function diff(
  s: Session,
  id: string,
  urn: string,
  olds: Props,
  news: Props,
  o: { oldInputs?: Props; preview?: boolean; ignoreChanges?: string[] } = {},
): Promise<DiffResult> {
  const p = requireConfigured(s, "Diff");
  const allowUnknowns = o.preview === true;
  if (!allowUnknowns) noUnknowns("Diff", olds, news, o.oldInputs);
  const oldInputs = o.oldInputs ?? olds;
  const { name, type } = urnParts(urn);
  const req = new provproto.DiffRequest()
    .setId(id)
    .setUrn(urn)
    .setName(name)
    .setType(type)
    .setOldInputs(toStruct(oldInputs, stripped(p, allowUnknowns), "Diff.oldInputs"))
    .setOlds(toStruct(olds, stripped(p, allowUnknowns), "Diff.oldOutputs"))
    .setNews(toStruct(news, stripped(p, allowUnknowns), "Diff.newInputs"))
    .setIgnorechangesList(o.ignoreChanges ?? []);
  const res = await s
    .call<provprotoT.DiffRequest, provprotoT.DiffResponse>("diff", req)
    .catch((e) => Promise.reject(rpcError("Diff", e)));
  const C = provproto.DiffResponse.DiffChanges;
  const kind =
    res.getChanges() === C.DIFF_SOME ? "some" : res.getChanges() === C.DIFF_NONE ? "none" : "unknown";
  // step_generator: DIFF_UNKNOWN -> legacy diff of old inputs against new inputs.
  const changes = kind === "some" || (kind === "unknown" && !deepEqual(oldInputs, news));
  return {
    changes,
    changesKind: kind,
    replaces: res.getReplacesList(),
    deleteBeforeReplace: res.getDeletebeforereplace(),
    diffs: res.getDiffsList(),
    stables: res.getStablesList(),
  };
}

/** Create (or its preview); providers without preview support are not called in preview. */
export async function create(
  s: Session,
  urn: string,
  props: Props,
  o: { preview?: boolean; timeout?: number } = {},
): Promise<CreateResult> {
  const p = requireConfigured(s, "Create");
  const preview = o.preview === true;
  if (preview && !p.supportsPreview) {
    // provider_plugin.go Create: providers without preview support are not called during
    // preview; the inputs stand in for the state.
    return { id: "", outs: cloneProps(props), providerCalled: false };
  }
  if (!preview) noUnknowns("Create", props);
  const { name, type } = urnParts(urn);
  const req = new provproto.CreateRequest()
    .setUrn(urn)
    .setName(name)
    .setType(type)
    .setProperties(toStruct(props, stripped(p, preview), "Create.inputs"))
    .setTimeout(o.timeout ?? 0)
    .setPreview(preview);
  const res = await s
    .call<provprotoT.CreateRequest, provprotoT.CreateResponse>("create", req)
    .catch((e) => Promise.reject(failure("Create", e, props)));
  const id = res.getId();
  if (id === "" && !preview) {
    throw new EngineError(
      `plugin for package 'pulumi-nodejs' returned empty resource.ID from create '${urn}'`,
    );
  }
  const outs = fromStruct(
    res.getProperties(),
    { keepUnknowns: preview, rejectUnknowns: !preview },
    "Create.outputs",
  );
  if (!p.acceptSecrets) annotateSecrets(outs, props);
  return { id, outs, providerCalled: true };
}

/** Read: the current state of `id`, and its inputs when the provider returns them. */
export async function read(
  s: Session,
  id: string,
  urn: string,
  props: Props,
  inputs?: Props,
): Promise<ReadResult> {
  const p = requireConfigured(s, "Read");
  const { name, type } = urnParts(urn);
  const req = new provproto.ReadRequest()
    .setId(id)
    .setUrn(urn)
    .setName(name)
    .setType(type)
    .setProperties(toStruct(props, stripped(p, false), "Read.state"));
  if (inputs) req.setInputs(toStruct(inputs, stripped(p, false), "Read.inputs"));
  const res = await s
    .call<provprotoT.ReadRequest, provprotoT.ReadResponse>("read", req)
    .catch((e) => Promise.reject(failure("Read", e, props)));
  const newState = fromStruct(res.getProperties(), outputs, "Read.outputs");
  const newInputs = res.hasInputs() ? fromStruct(res.getInputs(), outputs, "Read.inputs") : undefined;
  if (!p.acceptSecrets) {
    annotateSecrets(newInputs, inputs);
    annotateSecrets(newState, props);
  }
  return { id: res.getId(), props: newState, inputs: newInputs };
}

/** Update (or its preview): `olds` are the old OUTPUTS (state). */
export async function update(
  s: Session,
  id: string,
  urn: string,
  olds: Props,
  news: Props,
  o: { oldInputs?: Props; preview?: boolean; ignoreChanges?: string[]; timeout?: number } = {},
): Promise<UpdateResult> {
  const p = requireConfigured(s, "Update");
  const preview = o.preview === true;
  if (preview && !p.supportsPreview) {
    return { outs: cloneProps(news), providerCalled: false };
  }
  if (!preview) noUnknowns("Update", olds, news, o.oldInputs);
  const { name, type } = urnParts(urn);
  const req = new provproto.UpdateRequest()
    .setId(id)
    .setUrn(urn)
    .setName(name)
    .setType(type)
    .setOlds(toStruct(olds, stripped(p, false), "Update.oldOutputs"))
    .setNews(toStruct(news, stripped(p, preview), "Update.newInputs"))
    .setOldInputs(toStruct(o.oldInputs ?? olds, stripped(p, false), "Update.oldInputs"))
    .setTimeout(o.timeout ?? 0)
    .setIgnorechangesList(o.ignoreChanges ?? [])
    .setPreview(preview);
  const res = await s
    .call<provprotoT.UpdateRequest, provprotoT.UpdateResponse>("update", req)
    .catch((e) => Promise.reject(failure("Update", e, news)));
  const outs = fromStruct(
    res.getProperties(),
    { keepUnknowns: preview, rejectUnknowns: !preview },
    "Update.outputs",
  );
  if (!p.acceptSecrets) annotateSecrets(outs, news);
  return { outs, providerCalled: true };
}

/** Delete: `props` are the OUTPUTS (state). */
export async function deleteResource(
  s: Session,
  id: string,
  urn: string,
  props: Props,
  o: { oldInputs?: Props; timeout?: number } = {},
): Promise<void> {
  const p = requireConfigured(s, "Delete");
  noUnknowns("Delete", props, o.oldInputs);
  const { name, type } = urnParts(urn);
  const req = new provproto.DeleteRequest()
    .setId(id)
    .setUrn(urn)
    .setName(name)
    .setType(type)
    .setProperties(toStruct(props, stripped(p, false), "Delete.outputs"))
    .setOldInputs(toStruct(o.oldInputs ?? props, stripped(p, false), "Delete.inputs"))
    .setTimeout(o.timeout ?? 0);
  await s.call("delete", req).catch((e) => Promise.reject(rpcError("Delete", e)));
}
