/**
 * The messages of Pulumi's `Converter` service that the converter plugin serves
 * (`proto/pulumi/converter.proto`, `codegen/hcl.proto`; the field numbers of CLI v3.274.1), on
 * the plugin's own protobuf writer and reader (provider/native/protoWire.ts): `ConvertState`'s
 * request (its `args`, the arguments given after `pulumi import --from vmapi`) and answer (the
 * resources to import and the diagnostics). `GetPluginInfo` answers the version, as every plugin's.
 */
import {
  LEN,
  ProtoReader,
  ProtoWriter,
  VARINT,
  writeNested,
  writeStringField,
} from "../provider/native/protoWire";
import { writeStruct } from "../provider/native/structWire";

/** `ConvertStateRequest`, the field this plugin reads. */
export interface ConvertStateRequest {
  args: string[];
}

/** `ResourceImport`, the fields this plugin sends. */
export interface ResourceImport {
  type: string;
  name: string;
  id: string;
  logicalName: string;
  /** Input properties the provider's `Read` cannot tell (`inputs`, field 14). */
  inputs?: Record<string, unknown>;
}

/**
 * `codegen.Diagnostic`: 1 an error (the CLI imports nothing), 2 a warning. The CLI prints it as
 * `<file>:<line>,1-1: <summary>; <detail>` (hcl's format), `<nil>` for the place when there is no
 * subject.
 */
export interface Diagnostic {
  severity: 1 | 2;
  summary: string;
  detail?: string;
  /** Where in which file (`subject`, a `codegen.Range` of one line). */
  subject?: { filename: string; line: number };
}

/** `ConvertStateResponse`. */
export interface ConvertStateResponse {
  resources: ResourceImport[];
  diagnostics: Diagnostic[];
}

/** Decodes `ConvertStateRequest` (field 2, `args`; the service targets are not used). */
export function decodeConvertStateRequest(bytes: Uint8Array): ConvertStateRequest {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reader = new ProtoReader(buf);
  const args: string[] = [];
  while (reader.pos < buf.length) {
    const tag = reader.uint32();
    if (tag === ((2 << 3) | LEN)) args.push(reader.string());
    else reader.skip(tag & 7);
  }
  return { args };
}

/** Encodes `ConvertStateResponse`. */
export function encodeConvertStateResponse(response: ConvertStateResponse): Buffer {
  const writer = new ProtoWriter();
  for (const r of response.resources) {
    writeNested(writer, 1, () => {
      writeStringField(writer, 1, r.type);
      writeStringField(writer, 2, r.name);
      writeStringField(writer, 3, r.id);
      writeStringField(writer, 6, r.logicalName);
      if (r.inputs !== undefined) writeNested(writer, 14, () => writeStruct(writer, r.inputs!));
    });
  }
  for (const d of response.diagnostics) {
    writeNested(writer, 2, () => {
      writer.tag(1, VARINT);
      writer.varint(d.severity);
      writeStringField(writer, 2, d.summary);
      writeStringField(writer, 3, d.detail);
      if (d.subject !== undefined) writeRange(writer, 4, d.subject.filename, d.subject.line);
    });
  }
  return writer.finish();
}

/** A `codegen.Range` of `line`, column 1 (its `Pos`: line 1, column 2). */
function writeRange(writer: ProtoWriter, no: number, filename: string, line: number): void {
  writeNested(writer, no, () => {
    writeStringField(writer, 1, filename);
    for (const pos of [2, 3]) {
      writeNested(writer, pos, () => {
        writer.tag(1, VARINT);
        writer.varint(line);
        writer.tag(2, VARINT);
        writer.varint(1);
      });
    }
  });
}
