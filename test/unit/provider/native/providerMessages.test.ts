/**
 * The plugin's wire codec (src/provider/native/providerMessages.ts, structWire.ts, protoWire.ts)
 * against google-protobuf, the SDK's own encoding, on generated messages (fast-check, one seed):
 * property bags of nested structs and lists, secrets and the preview's unknown, large and
 * non-ASCII strings, numbers at the edges (-0, NaN, ±Infinity, 2^53, the smallest subnormal, the
 * largest double). Every message, both ways: google-protobuf's bytes decode equal with the codec
 * (fields the codec does not read among them), and the codec's bytes decode equal with
 * google-protobuf and are its very bytes (but a NaN's, whose bit pattern each writes its own way).
 */
import fc from "fast-check";
import {
  anyProto,
  emptyProto,
  engineProto,
  pluginProto,
  providerProto,
  statusProto,
  structProto,
} from "../../../kit/sdkStubs";
import { MESSAGES, codecs, type MessageType } from "../../../../src/provider/native/providerMessages";
import { UNKNOWN } from "../../../../src/provider/shared/unknown";

/* eslint-disable @typescript-eslint/no-explicit-any -- google-protobuf's generated messages have no types here */

const RUNS = { seed: 20261129, numRuns: 120 } as const;
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Name = keyof typeof MESSAGES;

/** google-protobuf's class of each message, and of the messages nested in them. */
const CLASSES = new Map<MessageType, any>(
  Object.keys(MESSAGES).map((name) => [MESSAGES[name as Name], classOf(name as Name)] as const),
);
function classOf(name: Name): any {
  if (name === "Empty") return emptyProto.Empty;
  if (name === "Status") return statusProto.Status;
  if (name === "PluginInfo" || name === "PluginAttach") return pluginProto[name];
  if (name === "LogRequest") return engineProto.LogRequest;
  return providerProto[name];
}
const nestedOf = (type: MessageType, no: number): MessageType => (type.byNumber[no]!.kind as any).message;
CLASSES.set(nestedOf(MESSAGES.CheckResponse, 2), providerProto.CheckFailure);
CLASSES.set(nestedOf(MESSAGES.DiffResponse, 6), providerProto.PropertyDiff);
CLASSES.set(nestedOf(MESSAGES.Status, 3), anyProto.Any);

/** google-protobuf's accessor suffix of a field (`deleteBeforeReplace` → `Deletebeforereplace`). */
function accessor(name: string): string {
  const lower = name === "typeUrl" ? "type_url" : name.toLowerCase();
  return lower.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** `plain` as google-protobuf's message of `type`. */
function toProto(type: MessageType, plain: Record<string, unknown>): any {
  const msg = new (CLASSES.get(type))();
  for (const { name, kind } of type.fields) {
    const v = plain[name] as any;
    const suffix = accessor(name);
    switch (kind.type) {
      case "struct":
        if (v !== undefined) msg[`set${suffix}`](structProto.Struct.fromJavaScript(v));
        break;
      case "strings":
        msg[`set${suffix}List`](v);
        break;
      case "messages":
        msg[`set${suffix}List`](v.map((item: any) => toProto(kind.message, item)));
        break;
      case "map":
        for (const [key, item] of Object.entries(v)) {
          msg[`get${suffix}Map`]().set(key, toProto(kind.message, item as Record<string, unknown>));
        }
        break;
      case "stringMap":
        for (const [key, item] of Object.entries(v)) msg[`get${suffix}Map`]().set(key, item);
        break;
      default:
        msg[`set${suffix}`](v);
    }
  }
  return msg;
}

/** google-protobuf's message of `type` as the codec's plain value, read with its getters. */
function fromProto(type: MessageType, msg: any): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const { name, kind } of type.fields) {
    const suffix = accessor(name);
    switch (kind.type) {
      case "struct":
        plain[name] = msg[`get${suffix}`]()?.toJavaScript();
        break;
      case "bytes":
        plain[name] = Buffer.from(msg[`get${suffix}_asU8`]());
        break;
      case "strings":
        plain[name] = msg[`get${suffix}List`]();
        break;
      case "messages":
        plain[name] = msg[`get${suffix}List`]().map((item: any) => fromProto(kind.message, item));
        break;
      case "map":
        plain[name] = Object.fromEntries(
          msg[`get${suffix}Map`]()
            .getEntryList()
            .map(([key]: [string]) => [key, fromProto(kind.message, msg[`get${suffix}Map`]().get(key))]),
        );
        break;
      case "stringMap":
        plain[name] = Object.fromEntries(msg[`get${suffix}Map`]().getEntryList());
        break;
      default:
        plain[name] = msg[`get${suffix}`]();
    }
  }
  return plain;
}

const EDGE_NUMBERS = [0, -0, NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, Number.MIN_VALUE];
const number = fc.oneof(fc.constantFrom(...EDGE_NUMBERS, Number.MAX_VALUE, 0.1), fc.double(), fc.integer());
/** Strings: short ones of any script, and long ones whose length needs a 2- or 3-byte varint. */
const text = fc.oneof(
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 6 },
  { arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 200 }), weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom("a", "é", "€", "😀", "日本"), fc.integer({ min: 40, max: 40_000 }))
      .map(([unit, count]) => unit.repeat(count)),
    weight: 1,
  },
  { arbitrary: fc.constant(UNKNOWN), weight: 1 },
);
const key = fc.oneof(text, fc.constantFrom("", "0", "10", "2", "apiKey")).filter((k) => k !== "__proto__");

/** A property bag: what the engine sends and the plugin answers. */
const { bag } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    tie("list"),
    tie("bag"),
    tie("secret"),
  ),
  list: fc.array(tie("value"), { maxLength: 5 }),
  bag: fc.dictionary(key, tie("value"), { maxKeys: 8, noNullPrototype: true }),
  secret: tie("value").map((value) => ({ [SIG_KEY]: SECRET_SIG, value })),
}));

/** A generated plain value of `type`, every field it reads or writes given. */
function plainOf(type: MessageType): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const { name, kind } of type.fields) {
    fields[name] = {
      string: text,
      bytes: fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
      double: number,
      bool: fc.boolean(),
      enum: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
      struct: fc.option(bag as fc.Arbitrary<unknown>, { nil: undefined }),
      strings: fc.array(text, { maxLength: 4 }),
      message: fc.constant(undefined),
      messages: "message" in kind ? fc.array(plainOf(kind.message), { maxLength: 3 }) : fc.constant([]),
      map: "message" in kind ? fc.dictionary(key, plainOf(kind.message), { maxKeys: 4 }) : fc.constant({}),
      stringMap: fc.dictionary(key, text, { maxKeys: 4 }),
    }[kind.type];
  }
  return fc.record(fields) as fc.Arbitrary<Record<string, unknown>>;
}

/** Fields the engine sends that the plugin does not read, each of its own type, to be passed over. */
const UNREAD: Partial<Record<Name, (msg: any) => void>> = {
  CheckRequest: (msg) => {
    msg.setName("box");
    msg.setType("vmapi:index:Machine");
    msg.setOldOutputs(structProto.Struct.fromJavaScript({ machineId: "ps1", size: 50 }));
  },
  DiffRequest: (msg) => {
    msg.setIgnorechangesList(["size", "name"]);
    msg.setOldInputs(structProto.Struct.fromJavaScript({ nested: { list: [1, "two", null] } }));
  },
  CreateRequest: (msg) => msg.setResourceStatusToken("token"),
  ReadRequest: (msg) => {
    msg.setInputs(structProto.Struct.fromJavaScript({ size: 50 }));
    msg.setTimeout(12.5);
  },
  UpdateRequest: (msg) => msg.setOldInputs(structProto.Struct.fromJavaScript({ a: true })),
  DeleteRequest: (msg) => msg.setOldInputs(structProto.Struct.fromJavaScript({ a: [] })),
  InvokeRequest: (msg) => msg.setPreview(true),
  GetSchemaRequest: (msg) => {
    msg.setVersion(-1);
    msg.setSubpackageName("sub");
    msg.setSubpackageVersion("1.0.0");
  },
  ConfigureRequest: (msg) => {
    msg.setAcceptsecrets(true);
    msg.setAcceptresources(true);
    msg.setSendsOldInputs(true);
    msg.setSendsOldInputsToDelete(true);
    msg.setId("provider-id");
    msg.setUrn("urn:pulumi:dev::p::pulumi:providers:vmapi::default");
    msg.setName("default");
    msg.setType("pulumi:providers:vmapi");
  },
  LogRequest: (msg) => {
    msg.setStreamid(7);
    msg.setEphemeral(true);
  },
};

function containsNaN(value: unknown): boolean {
  if (typeof value === "number") return Number.isNaN(value);
  if (value === null || typeof value !== "object" || Buffer.isBuffer(value)) return false;
  return Object.values(value).some(containsNaN);
}

/** Equal values, keys in the same order (what compares bags by their JSON sees that order). */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe.each(Object.keys(MESSAGES) as Name[])("%s", (name) => {
  const type = MESSAGES[name];
  const Class = classOf(name);

  it("google-protobuf's bytes → decoded by the codec equal to google-protobuf's reading", () => {
    fc.assert(
      fc.property(plainOf(type), (plain) => {
        const msg = toProto(type, plain);
        UNREAD[name]?.(msg);
        const bytes = Buffer.from(msg.serializeBinary());
        expectSame(codecs[name].decode(bytes), fromProto(type, Class.deserializeBinary(bytes)));
      }),
      RUNS,
    );
  });

  it("the codec's bytes → google-protobuf's bytes (but NaN's), read back equal by google-protobuf", () => {
    fc.assert(
      fc.property(plainOf(type), (plain) => {
        const msg = toProto(type, plain);
        const bytes = codecs[name].encode(plain);
        expectSame(fromProto(type, Class.deserializeBinary(bytes)), fromProto(type, msg));
        // Buffer.equals: jest's toEqual walks a 100 KB buffer byte by byte, for seconds.
        expect(containsNaN(plain) || bytes.equals(msg.serializeBinary())).toBe(true);
      }),
      RUNS,
    );
  });
});

describe("Struct values at the edges", () => {
  const codec = codecs.InvokeResponse;

  it("encode, decode: -0, NaN, ±Infinity, 2^53, subnormal and largest doubles → the same numbers", () => {
    const numbers = [...EDGE_NUMBERS, Number.MAX_VALUE, -Number.MIN_VALUE];
    const decoded = codec.decode(codec.encode({ return: { numbers } })).return as { numbers: number[] };
    expect(decoded.numbers.map((n) => (Object.is(n, -0) ? "-0" : String(n)))).toEqual(
      numbers.map((n) => (Object.is(n, -0) ? "-0" : String(n))),
    );
  });

  it("encode: undefined or a function inside a bag → google-protobuf's error", () => {
    for (const value of [undefined, () => 1, 1n]) {
      expect(() => codec.encode({ return: { nested: [value] } })).toThrow("Unexpected struct type.");
      expect(() => structProto.Struct.fromJavaScript({ nested: [value] })).toThrow("Unexpected struct type.");
    }
  });

  it("decode: keys the engine sends out of order, or twice → sorted, the last value kept", () => {
    const entry = (k: string, v: string) => {
      const value = structProto.Value.fromJavaScript(v).serializeBinary();
      const body = Buffer.concat([
        Buffer.from([0x0a, k.length]),
        Buffer.from(k),
        Buffer.from([0x12, value.length]),
        value,
      ]);
      return Buffer.concat([Buffer.from([0x0a, body.length]), body]);
    };
    const struct = Buffer.concat([entry("b", "1"), entry("a", "2"), entry("b", "3")]);
    const bytes = Buffer.concat([Buffer.from([0x0a, struct.length]), struct]);
    const decoded = codec.decode(bytes).return;
    expect(JSON.stringify(decoded)).toBe('{"a":"2","b":"3"}');
  });

  it("decode: short strings read again, and strings whose hashes collide ('Aa', 'BB') → each its own text every time", () => {
    const texts = ["Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa", "ready", "", "x".repeat(64), "é"];
    for (let round = 0; round < 3; round++)
      for (const order of [texts, [...texts].reverse()]) {
        const bag = Object.fromEntries(order.map((text, i) => [`${text}-${i}`, text]));
        expect(codec.decode(codec.encode({ return: bag })).return).toEqual(bag);
      }
  });

  it("decode: bytes cut short anywhere → a RangeError, never a hang or a wrong value", () => {
    const bytes = codec.encode({ return: { text: "é".repeat(300), list: [1, { a: true }], n: 2 ** 53 } });
    for (let cut = 1; cut < bytes.length; cut += 7) {
      expect(() => codec.decode(bytes.subarray(0, cut))).toThrow(RangeError);
    }
  });
});
