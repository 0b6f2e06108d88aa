/**
 * Every message the plugin serves or sends: the engine's messages a resource goes through
 * (`Check`, `Diff`, `Create`, `Read`, `Update`, `Delete`, `Invoke` and their answers; `CheckConfig`
 * and `DiffConfig` share `Check`'s and `Diff`'s), those of the calls made once a run
 * (`GetPluginInfo`, `GetSchema`, `Configure`, `Cancel`, `Attach`, `GetMapping(s)`), the engine's
 * `Log` and the status detail of a partial failure, decoded and encoded straight between protobuf
 * bytes and plain values. The plugin's service definition (`providerService`) gives grpc-js them
 * as the serializers of every method it registers, so the plugin loads neither google-protobuf nor
 * the SDK's generated stubs.
 *
 * Each message is a table of the fields the plugin reads or writes, by the field numbers of the
 * SDK's `proto/provider.proto` (as `@pulumi/pulumi/proto/provider_pb.js` writes them),
 * `plugin.proto`, `engine.proto`, `status.proto` and `any.proto`. A field not in its table is passed over when read, as protobuf wants of fields a
 * reader does not know; a field at its default is left out when written, as proto3 does.
 * test/unit/provider/native/providerMessages.test.ts holds every message equal to
 * google-protobuf's encoding, both ways.
 */
import { FIXED64, LEN, ProtoReader, ProtoWriter, VARINT } from "./protoWire";
import { readStruct, writeStruct } from "./structWire";

/** How one field is held: a scalar, a Struct (a plain object), a nested message, or a list or map of them. */
type FieldKind =
  | { type: "string" | "bytes" | "double" | "bool" | "enum" | "struct" | "strings" | "stringMap" }
  | { type: "message" | "messages" | "map"; message: MessageType };

/** One field: its number and its name in the plain value. */
interface Field {
  no: number;
  name: string;
  kind: FieldKind;
}

/** A message's fields, by number. */
export interface MessageType {
  fields: readonly Field[];
  byNumber: readonly (Field | undefined)[];
}

/** The codec of one message: plain value ↔ bytes. */
export interface MessageCodec<T> {
  decode(bytes: Uint8Array): T;
  encode(value: T): Buffer;
}

const scalar = (
  type: "string" | "bytes" | "double" | "bool" | "enum" | "struct" | "strings" | "stringMap",
) => ({ type });
const nested = (type: "message" | "messages" | "map", message: MessageType) => ({ type, message });

function message(fields: Record<string, [number, FieldKind]>): MessageType {
  const list = Object.entries(fields)
    .map(([name, [no, kind]]) => ({ no, name, kind }))
    .sort((a, b) => a.no - b.no);
  const byNumber: (Field | undefined)[] = [];
  for (const field of list) byNumber[field.no] = field;
  return { fields: list, byNumber };
}

/** A property bag: a Struct as google-protobuf's `toJavaScript` gives it, secret marks included. */
export type Bag = Record<string, unknown>;

/** The value of a message field, or of a Struct field, that was not sent. */
type Optional<T> = T | undefined;

export interface CheckRequest {
  urn: string;
  olds: Optional<Bag>;
  news: Optional<Bag>;
  randomSeed: Buffer;
}
export interface CheckFailure {
  property: string;
  reason: string;
}
export interface CheckResponse {
  inputs: Optional<Bag>;
  failures: CheckFailure[];
}
export interface DiffRequest {
  id: string;
  urn: string;
  olds: Optional<Bag>;
  news: Optional<Bag>;
}
export interface PropertyDiff {
  kind: number;
  inputDiff: boolean;
}
export interface DiffResponse {
  replaces: string[];
  deleteBeforeReplace: boolean;
  changes: number;
  diffs: string[];
  detailedDiff: Record<string, PropertyDiff>;
  hasDetailedDiff: boolean;
}
export interface CreateRequest {
  urn: string;
  properties: Optional<Bag>;
  timeout: number;
  preview: boolean;
}
export interface CreateResponse {
  id: string;
  properties: Optional<Bag>;
}
export interface ReadRequest {
  id: string;
  urn: string;
  properties: Optional<Bag>;
  /** The stored inputs: a refresh's; none for `pulumi import` and `get`. */
  inputs: Optional<Bag>;
}
export interface ReadResponse {
  id: string;
  properties: Optional<Bag>;
  inputs: Optional<Bag>;
}
export interface UpdateRequest {
  id: string;
  urn: string;
  olds: Optional<Bag>;
  news: Optional<Bag>;
  timeout: number;
  preview: boolean;
}
export interface UpdateResponse {
  properties: Optional<Bag>;
}
export interface DeleteRequest {
  id: string;
  urn: string;
  properties: Optional<Bag>;
  timeout: number;
}
export interface InvokeRequest {
  tok: string;
  args: Optional<Bag>;
}
export interface InvokeResponse {
  return: Optional<Bag>;
}
export interface PluginInfo {
  version: string;
}
export interface GetSchemaResponse {
  schema: string;
}
export interface ConfigureRequest {
  variables: Record<string, string>;
  args: Optional<Bag>;
}
export interface ConfigureResponse {
  acceptSecrets: boolean;
  supportsPreview: boolean;
  acceptResources: boolean;
  acceptOutputs: boolean;
}
export interface GetMappingResponse {
  provider: string;
  data: Buffer;
}
export interface GetMappingsResponse {
  providers: string[];
}
export interface LogRequest {
  severity: number;
  message: string;
  urn: string;
}
export interface ErrorResourceInitFailed {
  id: string;
  properties: Optional<Bag>;
  reasons: string[];
  inputs: Optional<Bag>;
}
export interface Any {
  typeUrl: string;
  value: Buffer;
}
export interface Status {
  code: number;
  message: string;
  details: Any[];
}

const CHECK_FAILURE = message({ property: [1, scalar("string")], reason: [2, scalar("string")] });
const PROPERTY_DIFF = message({ kind: [1, scalar("enum")], inputDiff: [2, scalar("bool")] });
const ANY = message({ typeUrl: [1, scalar("string")], value: [2, scalar("bytes")] });

/** The fields `Diff` and `Update` requests number alike: the resource and its old and new properties. */
const OLDS_AND_NEWS: Record<string, [number, FieldKind]> = {
  id: [1, scalar("string")],
  urn: [2, scalar("string")],
  olds: [3, scalar("struct")],
  news: [4, scalar("struct")],
};
/** The fields `Read` and `Delete` requests number alike: the resource and its stored properties. */
const STORED: Record<string, [number, FieldKind]> = {
  id: [1, scalar("string")],
  urn: [2, scalar("string")],
  properties: [3, scalar("struct")],
};

/** The tables of the messages, by the protocol's names. */
export const MESSAGES = {
  CheckRequest: message({
    urn: [1, scalar("string")],
    olds: [2, scalar("struct")],
    news: [3, scalar("struct")],
    randomSeed: [5, scalar("bytes")],
  }),
  CheckResponse: message({ inputs: [1, scalar("struct")], failures: [2, nested("messages", CHECK_FAILURE)] }),
  DiffRequest: message(OLDS_AND_NEWS),
  DiffResponse: message({
    replaces: [1, scalar("strings")],
    deleteBeforeReplace: [3, scalar("bool")],
    changes: [4, scalar("enum")],
    diffs: [5, scalar("strings")],
    detailedDiff: [6, nested("map", PROPERTY_DIFF)],
    hasDetailedDiff: [7, scalar("bool")],
  }),
  CreateRequest: message({
    urn: [1, scalar("string")],
    properties: [2, scalar("struct")],
    timeout: [3, scalar("double")],
    preview: [4, scalar("bool")],
  }),
  CreateResponse: message({ id: [1, scalar("string")], properties: [2, scalar("struct")] }),
  ReadRequest: message({ ...STORED, inputs: [4, scalar("struct")] }),
  ReadResponse: message({
    id: [1, scalar("string")],
    properties: [2, scalar("struct")],
    inputs: [3, scalar("struct")],
  }),
  UpdateRequest: message({
    ...OLDS_AND_NEWS,
    timeout: [5, scalar("double")],
    preview: [7, scalar("bool")],
  }),
  UpdateResponse: message({ properties: [1, scalar("struct")] }),
  DeleteRequest: message({
    ...STORED,
    timeout: [4, scalar("double")],
  }),
  InvokeRequest: message({ tok: [1, scalar("string")], args: [2, scalar("struct")] }),
  InvokeResponse: message({ return: [1, scalar("struct")] }),
  Empty: message({}),
  PluginInfo: message({ version: [1, scalar("string")] }),
  PluginAttach: message({ address: [1, scalar("string")] }),
  GetSchemaRequest: message({}),
  GetSchemaResponse: message({ schema: [1, scalar("string")] }),
  ConfigureRequest: message({ variables: [1, scalar("stringMap")], args: [2, scalar("struct")] }),
  ConfigureResponse: message({
    acceptSecrets: [1, scalar("bool")],
    supportsPreview: [2, scalar("bool")],
    acceptResources: [3, scalar("bool")],
    acceptOutputs: [4, scalar("bool")],
  }),
  GetMappingRequest: message({ key: [1, scalar("string")], provider: [2, scalar("string")] }),
  GetMappingResponse: message({ provider: [1, scalar("string")], data: [2, scalar("bytes")] }),
  GetMappingsRequest: message({ key: [1, scalar("string")] }),
  GetMappingsResponse: message({ providers: [1, scalar("strings")] }),
  LogRequest: message({
    severity: [1, scalar("enum")],
    message: [2, scalar("string")],
    urn: [3, scalar("string")],
  }),
  ErrorResourceInitFailed: message({
    id: [1, scalar("string")],
    properties: [2, scalar("struct")],
    reasons: [3, scalar("strings")],
    inputs: [4, scalar("struct")],
  }),
  Status: message({
    code: [1, scalar("enum")],
    message: [2, scalar("string")],
    details: [3, nested("messages", ANY)],
  }),
} as const;

/** A field's value when the message does not carry it. */
function defaultOf(kind: FieldKind): unknown {
  switch (kind.type) {
    case "string":
      return "";
    case "bytes":
      return Buffer.alloc(0);
    case "double":
    case "enum":
      return 0;
    case "bool":
      return false;
    case "strings":
    case "messages":
      return [];
    case "map":
    case "stringMap":
      return {};
    default:
      return undefined;
  }
}

/** Reads the fields of `type` up to `end`. */
function readMessage(reader: ProtoReader, end: number, type: MessageType): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of type.fields) value[field.name] = defaultOf(field.kind);
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = type.byNumber[tag >>> 3];
    if (field === undefined) reader.skip(tag & 7);
    else readField(reader, field, value, tag & 7);
  }
  return value;
}

function readField(reader: ProtoReader, field: Field, into: Record<string, unknown>, wireType: number): void {
  const kind = field.kind;
  switch (kind.type) {
    case "string":
      into[field.name] = reader.string();
      return;
    case "bytes":
      into[field.name] = reader.bytes();
      return;
    case "double":
      if (wireType !== FIXED64) break;
      into[field.name] = reader.double();
      return;
    case "bool":
      into[field.name] = reader.uint32() !== 0;
      return;
    case "enum":
      into[field.name] = reader.int32();
      return;
    case "struct":
      into[field.name] = readStruct(reader, reader.delimited());
      return;
    case "strings":
      (into[field.name] as string[]).push(reader.string());
      return;
    case "message":
      into[field.name] = readMessage(reader, reader.delimited(), kind.message);
      return;
    case "messages":
      (into[field.name] as unknown[]).push(readMessage(reader, reader.delimited(), kind.message));
      return;
    case "map": {
      const [key, item] = readEntry(
        reader,
        () => readMessage(reader, reader.delimited(), kind.message),
        () => readMessage(reader, reader.pos, kind.message),
      );
      (into[field.name] as Record<string, unknown>)[key] = item;
      return;
    }
    case "stringMap": {
      const [key, item] = readEntry(
        reader,
        () => reader.string(),
        () => "",
      );
      (into[field.name] as Record<string, string>)[key] = item;
      return;
    }
  }
  reader.skip(wireType);
}

/** One entry of a map field (key 1, a string; value 2), either missing at its default. */
function readEntry<T>(reader: ProtoReader, readValue: () => T, missing: () => T): [string, T] {
  const end = reader.delimited();
  let key = "";
  let value: T | undefined;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === ((1 << 3) | LEN)) key = reader.string();
    else if (tag === ((2 << 3) | LEN)) value = readValue();
    else reader.skip(tag & 7);
  }
  return [key, value ?? missing()];
}

/** Writes the fields of `type` from `value`, each left out at its default. */
function writeMessage(writer: ProtoWriter, type: MessageType, value: Record<string, unknown>): void {
  for (const field of type.fields) {
    const v = value[field.name];
    if (v === undefined || v === null) continue;
    const kind = field.kind;
    switch (kind.type) {
      case "string":
        if (v === "") break;
        writer.tag(field.no, LEN);
        writer.string(v as string);
        break;
      case "bytes":
        if ((v as Uint8Array).length === 0) break;
        writer.tag(field.no, LEN);
        writer.bytes(v as Uint8Array);
        break;
      case "double":
        if (v === 0) break;
        writer.tag(field.no, FIXED64);
        writer.double(v as number);
        break;
      case "bool":
      case "enum":
        if (v === false || v === 0) break;
        writer.tag(field.no, VARINT);
        writer.varint(v === true ? 1 : (v as number));
        break;
      case "struct":
        writeNested(writer, field.no, () => writeStruct(writer, v as object));
        break;
      case "strings":
        for (const s of v as string[]) {
          writer.tag(field.no, LEN);
          writer.string(s);
        }
        break;
      case "message":
        writeNested(writer, field.no, () => writeMessage(writer, kind.message, v as Record<string, unknown>));
        break;
      case "messages":
        for (const item of v as Record<string, unknown>[]) {
          writeNested(writer, field.no, () => writeMessage(writer, kind.message, item));
        }
        break;
      case "map":
        // Sorted by key, as google-protobuf writes a map.
        for (const key of Object.keys(v).sort()) {
          const item = (v as Record<string, Record<string, unknown>>)[key];
          writeNested(writer, field.no, () => {
            writer.tag(1, LEN);
            writer.string(key);
            writeNested(writer, 2, () => writeMessage(writer, kind.message, item));
          });
        }
        break;
      case "stringMap":
        for (const key of Object.keys(v).sort()) {
          writeNested(writer, field.no, () => {
            writer.tag(1, LEN);
            writer.string(key);
            writer.tag(2, LEN);
            writer.string((v as Record<string, string>)[key]);
          });
        }
        break;
    }
  }
}

function writeNested(writer: ProtoWriter, no: number, body: () => void): void {
  writer.tag(no, LEN);
  const start = writer.open();
  body();
  writer.close(start);
}

/** The codec of the message `type` (for `T`, one of the interfaces above). */
export function codecOf<T>(type: MessageType): MessageCodec<T> {
  return {
    decode(bytes) {
      const buf = Buffer.isBuffer(bytes)
        ? bytes
        : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return readMessage(new ProtoReader(buf), buf.length, type) as T;
    },
    encode(value) {
      const writer = new ProtoWriter();
      writeMessage(writer, type, value as Record<string, unknown>);
      return writer.finish();
    },
  };
}

/** Each message's codec. */
export const codecs = Object.fromEntries(
  Object.entries(MESSAGES).map(([name, type]) => [name, codecOf(type)]),
) as { [Name in keyof typeof MESSAGES]: MessageCodec<Record<string, unknown>> };

/** The service's methods the plugin registers (grpc-js's names), with their request and answer. */
export const PROVIDER_METHODS: Readonly<
  Record<string, readonly [keyof typeof MESSAGES, keyof typeof MESSAGES]>
> = {
  getPluginInfo: ["Empty", "PluginInfo"],
  getSchema: ["GetSchemaRequest", "GetSchemaResponse"],
  checkConfig: ["CheckRequest", "CheckResponse"],
  diffConfig: ["DiffRequest", "DiffResponse"],
  configure: ["ConfigureRequest", "ConfigureResponse"],
  check: ["CheckRequest", "CheckResponse"],
  diff: ["DiffRequest", "DiffResponse"],
  create: ["CreateRequest", "CreateResponse"],
  read: ["ReadRequest", "ReadResponse"],
  update: ["UpdateRequest", "UpdateResponse"],
  delete: ["DeleteRequest", "Empty"],
  invoke: ["InvokeRequest", "InvokeResponse"],
  cancel: ["Empty", "Empty"],
  attach: ["PluginAttach", "Empty"],
  getMapping: ["GetMappingRequest", "GetMappingResponse"],
  getMappings: ["GetMappingsRequest", "GetMappingsResponse"],
};

/** One unary method of a grpc-js service definition, carried by this codec. */
export interface UnaryMethod {
  path: string;
  requestStream: false;
  responseStream: false;
  originalName: string;
  requestSerialize(value: Record<string, unknown>): Buffer;
  requestDeserialize(bytes: Buffer): Record<string, unknown>;
  responseSerialize(value: Record<string, unknown>): Buffer;
  responseDeserialize(bytes: Buffer): Record<string, unknown>;
}

/** The unary method `name` (grpc-js's lower camel name) of `service`, carried by this codec. */
export function unaryMethod(
  service: string,
  name: string,
  request: keyof typeof MESSAGES,
  response: keyof typeof MESSAGES,
): UnaryMethod {
  return {
    path: `/${service}/${name[0].toUpperCase()}${name.slice(1)}`,
    requestStream: false,
    responseStream: false,
    originalName: name,
    requestSerialize: codecs[request].encode,
    requestDeserialize: codecs[request].decode,
    responseSerialize: codecs[response].encode,
    responseDeserialize: codecs[response].decode,
  };
}

/**
 * The plugin's `pulumirpc.ResourceProvider` service for grpc-js, made here instead of taken from
 * the SDK's `provider_grpc_pb.js` (which loads google-protobuf and every generated message): the
 * methods of `PROVIDER_METHODS`, unary, their handlers taking and answering the plain values
 * above. A method it does not register (Construct, Call, ...) is answered UNIMPLEMENTED by grpc-js,
 * as one registered without a handler was.
 */
export function providerService(): Record<string, UnaryMethod> {
  return Object.fromEntries(
    Object.entries(PROVIDER_METHODS).map(([name, [request, response]]) => [
      name,
      unaryMethod("pulumirpc.ResourceProvider", name, request, response),
    ]),
  );
}
