/**
 * The messages of Pulumi's `Analyzer` service that the policy plugin serves
 * (`proto/pulumi/analyzer.proto`, the field numbers of CLI v3.274.1), on the plugin's own protobuf
 * reader and writer (provider/native/protoWire.ts) and Struct codec (structWire.ts): the requests
 * of `Analyze`, `AnalyzeStack` and `Configure`, and the answers `AnalyzeResponse`, `AnalyzerInfo`
 * and `PluginInfo`. Only the fields the pack reads are decoded; the others are skipped.
 * test/unit/policy/analyzerMessages.test.ts holds them equal to the SDK's generated stubs.
 */
import {
  LEN,
  ProtoReader,
  ProtoWriter,
  VARINT,
  writeEnumField,
  writeNested,
  writeStringField,
} from "../provider/native/protoWire";
import { readStruct, readValue, writeStruct } from "../provider/native/structWire";

/** `EnforcementLevel`: 0 advisory, 1 mandatory, 2 disabled (3, remediate, is not offered). */
export const ENFORCEMENT = { advisory: 0, mandatory: 1, disabled: 2 } as const;
/** An enforcement level by its name in a pack's config. */
export type EnforcementName = keyof typeof ENFORCEMENT;

/** A resource as an analyzer is given it (`AnalyzeRequest`, `AnalyzerResource`): the fields read. */
export interface AnalyzedResource {
  type: string;
  urn: string;
  name: string;
  /** The resource's properties, secrets still marked (the engine keeps them). */
  properties: Record<string, unknown>;
  /** `options.protect`. */
  protect: boolean;
}

/** `PolicyConfig`: a policy's level and its properties, as `Configure` gives them. */
export interface PolicyConfig {
  enforcementLevel: number;
  properties: Record<string, unknown>;
}

/** `AnalyzeDiagnostic`, the fields sent. */
export interface Diagnostic {
  policyName: string;
  policyPackName: string;
  policyPackVersion: string;
  description: string;
  message: string;
  enforcementLevel: number;
  urn?: string;
}

/** `PolicyInfo`, the fields sent (`policy_type`: 1 a resource policy, 2 a stack policy). */
export interface PolicyInfo {
  name: string;
  displayName: string;
  description: string;
  enforcementLevel: number;
  configSchema: { properties: Record<string, unknown>; required?: string[] };
  policyType: 1 | 2;
}

/** `AnalyzerInfo`, the fields sent. */
export interface AnalyzerInfo {
  name: string;
  displayName: string;
  version: string;
  description: string;
  policies: PolicyInfo[];
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const tagOf = (field: number, wireType: number) => (field << 3) | wireType;

/** Reads `AnalyzerResourceOptions` up to `end`: only `protect` (1). */
function readProtect(reader: ProtoReader, end: number): boolean {
  let protect = false;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === tagOf(1, VARINT)) protect = reader.uint32() !== 0;
    else reader.skip(tag & 7);
  }
  return protect;
}

/**
 * Reads the entries of a Struct up to `end` whose keys are in `keys`, passing over the others
 * without decoding their values (a stack's resources carry every output; its policies read a few).
 */
function readStructKeys(
  reader: ProtoReader,
  end: number,
  keys: ReadonlySet<string>,
): Record<string, unknown> {
  const struct: Record<string, unknown> = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag !== tagOf(1, LEN)) {
      reader.skip(tag & 7);
      continue;
    }
    const entryEnd = reader.delimited();
    let key: string | undefined;
    while (reader.pos < entryEnd) {
      const field = reader.uint32();
      if (field === tagOf(1, LEN)) key = reader.string();
      else if (field === tagOf(2, LEN) && key !== undefined && keys.has(key))
        struct[key] = readValue(reader, reader.delimited());
      else reader.skip(field & 7);
    }
  }
  return struct;
}

/** Whether `type` is one of this package's (either route's), whose properties the policies read. */
const ours = (type: string) => type.startsWith("vmapi:") || type.startsWith("pulumi-nodejs:dynamic/vmapi:");

/**
 * Reads an `AnalyzeRequest` or an `AnalyzerResource` (the same numbers for the fields read) up to
 * `end`; with `keys`, only those properties, and none of another package's resource (the engine
 * writes the type before the properties).
 */
function readResource(reader: ProtoReader, end: number, keys?: ReadonlySet<string>): AnalyzedResource {
  const resource: AnalyzedResource = { type: "", urn: "", name: "", properties: {}, protect: false };
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag) {
      case tagOf(1, LEN):
        resource.type = reader.string();
        break;
      case tagOf(2, LEN): {
        const structEnd = reader.delimited();
        if (keys === undefined) resource.properties = readStruct(reader, structEnd);
        else if (resource.type === "" || ours(resource.type))
          resource.properties = readStructKeys(reader, structEnd, keys);
        reader.pos = structEnd;
        break;
      }
      case tagOf(3, LEN):
        resource.urn = reader.string();
        break;
      case tagOf(4, LEN):
        resource.name = reader.string();
        break;
      case tagOf(5, LEN):
        resource.protect = readProtect(reader, reader.delimited());
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  return resource;
}

/** Decodes `AnalyzeRequest`. */
export function decodeAnalyzeRequest(bytes: Uint8Array): AnalyzedResource {
  const buf = asBuffer(bytes);
  return readResource(new ProtoReader(buf), buf.length);
}

/** The properties the stack's policies read (stack-monthly-cost: what prices a machine). */
export const STACK_POLICY_KEYS: ReadonlySet<string> = new Set([
  "machineType",
  "billingType",
  "size",
  "state",
]);

/** Decodes `AnalyzeStackRequest` (field 1, `resources`), of each resource STACK_POLICY_KEYS only. */
export function decodeAnalyzeStackRequest(bytes: Uint8Array): AnalyzedResource[] {
  const buf = asBuffer(bytes);
  const reader = new ProtoReader(buf);
  const resources: AnalyzedResource[] = [];
  while (reader.pos < buf.length) {
    const tag = reader.uint32();
    if (tag === tagOf(1, LEN)) resources.push(readResource(reader, reader.delimited(), STACK_POLICY_KEYS));
    else reader.skip(tag & 7);
  }
  return resources;
}

/** Reads a `PolicyConfig` up to `end`. */
function readPolicyConfig(reader: ProtoReader, end: number): PolicyConfig {
  const config: PolicyConfig = { enforcementLevel: 0, properties: {} };
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === tagOf(1, VARINT)) config.enforcementLevel = reader.uint32();
    else if (tag === tagOf(2, LEN)) config.properties = readStruct(reader, reader.delimited());
    else reader.skip(tag & 7);
  }
  return config;
}

/** Decodes `ConfigureAnalyzerRequest` (field 1, the map of policy name to `PolicyConfig`). */
export function decodeConfigureRequest(bytes: Uint8Array): Record<string, PolicyConfig> {
  const buf = asBuffer(bytes);
  const reader = new ProtoReader(buf);
  const configs: Record<string, PolicyConfig> = {};
  while (reader.pos < buf.length) {
    const tag = reader.uint32();
    if (tag !== tagOf(1, LEN)) {
      reader.skip(tag & 7);
      continue;
    }
    const end = reader.delimited();
    let key = "";
    let value: PolicyConfig = { enforcementLevel: 0, properties: {} };
    while (reader.pos < end) {
      const field = reader.uint32();
      if (field === tagOf(1, LEN)) key = reader.string();
      else if (field === tagOf(2, LEN)) value = readPolicyConfig(reader, reader.delimited());
      else reader.skip(field & 7);
    }
    configs[key] = value;
  }
  return configs;
}

/** Encodes `AnalyzeResponse` (field 2, its diagnostics). */
export function encodeAnalyzeResponse(diagnostics: readonly Diagnostic[]): Buffer {
  const writer = new ProtoWriter();
  for (const d of diagnostics) {
    writeNested(writer, 2, () => {
      writeStringField(writer, 1, d.policyName);
      writeStringField(writer, 2, d.policyPackName);
      writeStringField(writer, 3, d.policyPackVersion);
      writeStringField(writer, 4, d.description);
      writeStringField(writer, 5, d.message);
      writeEnumField(writer, 7, d.enforcementLevel);
      writeStringField(writer, 8, d.urn);
    });
  }
  return writer.finish();
}

/** Encodes `AnalyzerInfo`; `supportsConfig` is true, so the CLI validates and sends the pack's config. */
export function encodeAnalyzerInfo(info: AnalyzerInfo): Buffer {
  const writer = new ProtoWriter();
  writeStringField(writer, 1, info.name);
  writeStringField(writer, 2, info.displayName);
  for (const p of info.policies) {
    writeNested(writer, 3, () => {
      writeStringField(writer, 1, p.name);
      writeStringField(writer, 2, p.displayName);
      writeStringField(writer, 3, p.description);
      writeEnumField(writer, 5, p.enforcementLevel);
      writeNested(writer, 6, () => {
        writeNested(writer, 1, () => writeStruct(writer, p.configSchema.properties));
        for (const r of p.configSchema.required ?? []) writeStringField(writer, 2, r);
      });
      writeEnumField(writer, 7, p.policyType);
    });
  }
  writeStringField(writer, 4, info.version);
  writer.tag(5, VARINT);
  writer.varint(1);
  writeStringField(writer, 7, info.description);
  return writer.finish();
}
