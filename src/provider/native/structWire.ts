/**
 * `google.protobuf.Struct` (and its `Value` and `ListValue`) straight between protobuf bytes and
 * the plain values the plugin hands its implementations: the same values google-protobuf's
 * `toJavaScript` gives and `fromJavaScript` takes, secret marks and the preview's unknown
 * sentinel included (they are plain objects and strings on the wire: wireValues.ts,
 * shared/unknown.ts). test/unit/provider/native/providerMessages.test.ts holds the two equal.
 *
 * As google-protobuf does, a Struct's keys are read and written in sorted order: the engine sends
 * them in any order, and what compares bags by their JSON (diffs) needs one order. Where it
 * parts from google-protobuf: a Value with no kind reads as `null` (google-protobuf throws), as
 * Go's `structpb` reads it.
 */
import { FIXED64, LEN, VARINT, type ProtoReader, type ProtoWriter } from "./protoWire";

/** A Value's fields (google/protobuf/struct.proto). */
const NULL_VALUE = 1;
const NUMBER_VALUE = 2;
const STRING_VALUE = 3;
const BOOL_VALUE = 4;
const STRUCT_VALUE = 5;
const LIST_VALUE = 6;

/** The fields of a Struct (its map, 1), of a map entry (key 1, value 2) and of a ListValue (values, 1). */
const FIELDS = 1;
const KEY = 1;
const VALUE = 2;
const VALUES = 1;

/** A tag's byte, for fields under 16. */
const tagOf = (field: number, wireType: number) => (field << 3) | wireType;

/** Reads a Struct whose fields end at `end`. */
export function readStruct(reader: ProtoReader, end: number): Record<string, unknown> {
  const keys: string[] = [];
  const values: unknown[] = [];
  let sorted = true;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag !== tagOf(FIELDS, LEN)) {
      reader.skip(tag & 7);
      continue;
    }
    const entryEnd = reader.delimited();
    let key = "";
    let value: unknown = null;
    while (reader.pos < entryEnd) {
      const field = reader.uint32();
      if (field === tagOf(KEY, LEN)) key = reader.string();
      else if (field === tagOf(VALUE, LEN)) value = readValue(reader, reader.delimited());
      else reader.skip(field & 7);
    }
    if (keys.length > 0 && !(keys[keys.length - 1] < key)) sorted = false;
    keys.push(key);
    values.push(value);
  }
  const struct: Record<string, unknown> = {};
  if (sorted) {
    for (let i = 0; i < keys.length; i++) struct[keys[i]] = values[i];
    return struct;
  }
  // A stable sort: of a key given twice, the last value wins, as a map's does.
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  for (const i of order) struct[keys[i]] = values[i];
  return struct;
}

/** Reads a Value whose fields end at `end`; the last kind given wins, as a oneof's does. */
export function readValue(reader: ProtoReader, end: number): unknown {
  let value: unknown = null;
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag) {
      case tagOf(NULL_VALUE, VARINT):
        reader.uint32();
        value = null;
        break;
      case tagOf(NUMBER_VALUE, FIXED64):
        value = reader.double();
        break;
      case tagOf(STRING_VALUE, LEN):
        value = reader.string();
        break;
      case tagOf(BOOL_VALUE, VARINT):
        value = reader.uint32() !== 0;
        break;
      case tagOf(STRUCT_VALUE, LEN):
        value = readStruct(reader, reader.delimited());
        break;
      case tagOf(LIST_VALUE, LEN):
        value = readList(reader, reader.delimited());
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  return value;
}

function readList(reader: ProtoReader, end: number): unknown[] {
  const list: unknown[] = [];
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === tagOf(VALUES, LEN)) list.push(readValue(reader, reader.delimited()));
    else reader.skip(tag & 7);
  }
  return list;
}

/**
 * Writes the fields of a Struct holding `struct`'s keys (enumerable ones, as google-protobuf's
 * `for...in` takes them), sorted. A value a Struct cannot hold (`undefined`, a function, a bigint)
 * throws google-protobuf's error.
 */
export function writeStruct(writer: ProtoWriter, struct: object): void {
  const keys: string[] = [];
  for (const key in struct) keys.push(key);
  keys.sort();
  for (const key of keys) {
    writer.tag(FIELDS, LEN);
    const entry = writer.open();
    writer.tag(KEY, LEN);
    writer.string(key);
    writer.tag(VALUE, LEN);
    const value = writer.open();
    writeValue(writer, (struct as Record<string, unknown>)[key]);
    writer.close(value);
    writer.close(entry);
  }
}

function writeValue(writer: ProtoWriter, value: unknown): void {
  switch (typeof value) {
    case "string":
      writer.tag(STRING_VALUE, LEN);
      writer.string(value);
      return;
    case "number":
      writer.tag(NUMBER_VALUE, FIXED64);
      writer.double(value);
      return;
    case "boolean":
      writer.tag(BOOL_VALUE, VARINT);
      writer.varint(value ? 1 : 0);
      return;
    case "object": {
      if (value === null) {
        writer.tag(NULL_VALUE, VARINT);
        writer.varint(0);
        return;
      }
      const isList = Array.isArray(value);
      writer.tag(isList ? LIST_VALUE : STRUCT_VALUE, LEN);
      const start = writer.open();
      if (isList) writeList(writer, value as unknown[]);
      else writeStruct(writer, value);
      writer.close(start);
      return;
    }
    default:
      throw new Error("Unexpected struct type.");
  }
}

function writeList(writer: ProtoWriter, list: readonly unknown[]): void {
  for (let i = 0; i < list.length; i++) {
    writer.tag(VALUES, LEN);
    const start = writer.open();
    writeValue(writer, list[i]);
    writer.close(start);
  }
}
