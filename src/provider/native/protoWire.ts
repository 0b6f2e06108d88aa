/**
 * Protocol buffers' binary format at the level the plugin's codec needs it (providerMessages.ts,
 * structWire.ts): varints, doubles, strings, bytes and length-delimited fields, read from and
 * written to Node Buffers with no message objects in between.
 *
 * The writer works in one pass: a nested message reserves one byte for its length, which fits
 * lengths under 128 (most of a property bag's values); a longer message is moved up once by the
 * extra bytes its length takes.
 */

/** The wire types used here. */
export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

/** Strings this short are copied in a loop when they are ASCII; longer ones by Buffer's encoder. */
const SHORT_STRING = 64;

/**
 * The short ASCII strings read lately, by a hash of their bytes: a bag's keys and most of its
 * values (a Machine's state, its region, its template) come again in every request of a command,
 * and each was built anew, a character at a time, for the collector to take back. A string found
 * here is the same text (its bytes compared), handed out again; strings are immutable, so sharing
 * one changes nothing. At most INTERNED_LIMIT are kept: past it, a new string takes the place of
 * the one of its hash, or is not kept.
 */
const interned = new Map<number, string>();
const INTERNED_LIMIT = 4096;

/** Whether `text` is the `length` ASCII bytes of `buf` from `start`. */
function sameAscii(text: string, buf: Buffer, start: number, length: number): boolean {
  if (text.length !== length) return false;
  for (let i = 0; i < length; i++) if (text.charCodeAt(i) !== buf[start + i]) return false;
  return true;
}

/** Reads one message's bytes (or a part of them) front to back. */
export class ProtoReader {
  pos = 0;

  constructor(readonly buf: Buffer) {}

  /** A varint's low 32 bits, as an unsigned number (tags, lengths, enums, bools). */
  uint32(): number {
    const buf = this.buf;
    let value = 0;
    let shift = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= buf.length) throw new RangeError("protobuf: truncated varint");
      const byte = buf[this.pos++];
      if (shift < 32) value |= (byte & 0x7f) << shift;
      shift += 7;
      if (byte < 0x80) return value >>> 0;
    }
    throw new RangeError("protobuf: varint longer than 10 bytes");
  }

  /** A varint as a signed 32-bit number (int32, as protobuf reads it). */
  int32(): number {
    return this.uint32() | 0;
  }

  /** The end of a length-delimited field whose length comes next. */
  delimited(): number {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.buf.length) throw new RangeError("protobuf: length past the end of the message");
    return end;
  }

  double(): number {
    if (this.pos + 8 > this.buf.length) throw new RangeError("protobuf: truncated double");
    const value = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return value;
  }

  string(): string {
    const end = this.delimited();
    const start = this.pos;
    this.pos = end;
    const length = end - start;
    if (length <= SHORT_STRING) {
      const buf = this.buf;
      let hash = length;
      for (let i = start; i < end; i++) {
        const byte = buf[i];
        if (byte >= 0x80) return buf.toString("utf8", start, end);
        hash = (Math.imul(hash, 31) + byte) | 0;
      }
      const known = interned.get(hash);
      if (known !== undefined && sameAscii(known, buf, start, length)) return known;
      let ascii = "";
      for (let i = start; i < end; i++) ascii += String.fromCharCode(buf[i]);
      if (known !== undefined || interned.size < INTERNED_LIMIT) interned.set(hash, ascii);
      return ascii;
    }
    return this.buf.toString("utf8", start, end);
  }

  /** A bytes field, copied out of the message. */
  bytes(): Buffer {
    const end = this.delimited();
    const value = Buffer.from(this.buf.subarray(this.pos, end));
    this.pos = end;
    return value;
  }

  /** Passes over a field of wire type `wireType` (a field the codec does not read). */
  skip(wireType: number): void {
    switch (wireType) {
      case VARINT:
        this.uint32();
        return;
      case FIXED64:
        this.pos += 8;
        break;
      case LEN:
        this.pos = this.delimited();
        return;
      case FIXED32:
        this.pos += 4;
        break;
      default:
        throw new RangeError(`protobuf: wire type ${wireType} is not supported`);
    }
    if (this.pos > this.buf.length) throw new RangeError("protobuf: truncated field");
  }
}

/** Writes one message, growing its buffer as needed. */
export class ProtoWriter {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  /** The message written so far (a view of the writer's buffer). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** A field's key: its number and wire type. */
  tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  /** A varint of a 32-bit number; a negative one sign-extended to ten bytes, as int32 is. */
  varint(value: number): void {
    this.ensure(10);
    const buf = this.buf;
    if (value < 0) {
      let low = value >>> 0;
      for (let i = 0; i < 4; i++) {
        buf[this.pos++] = (low & 0x7f) | 0x80;
        low >>>= 7;
      }
      buf[this.pos++] = (low & 0x0f) | 0xf0;
      for (let i = 0; i < 4; i++) buf[this.pos++] = 0xff;
      buf[this.pos++] = 0x01;
      return;
    }
    let rest = value >>> 0;
    while (rest >= 0x80) {
      buf[this.pos++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    buf[this.pos++] = rest;
  }

  double(value: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** A string as UTF-8, its length first (a lone surrogate becomes U+FFFD, as Buffer writes it). */
  string(value: string): void {
    const length = value.length;
    if (length <= SHORT_STRING) {
      this.ensure(1 + 3 * length);
      const buf = this.buf;
      const start = this.pos;
      let at = start + 1;
      let i = 0;
      for (; i < length; i++) {
        const code = value.charCodeAt(i);
        if (code >= 0x80) break;
        buf[at++] = code;
      }
      if (i === length) {
        buf[start] = length;
        this.pos = at;
        return;
      }
    }
    const bytes = Buffer.byteLength(value, "utf8");
    this.varint(bytes);
    this.ensure(bytes);
    this.pos += this.buf.write(value, this.pos, bytes, "utf8");
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** Starts a length-delimited part (after its tag); `close` with what this returns ends it. */
  open(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the part `open` started: its length written in front of it. */
  close(start: number): void {
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    let extra = 0;
    for (let rest = length >>> 7; rest > 0; rest >>>= 7) extra++;
    this.ensure(extra);
    this.buf.copyWithin(start + 1 + extra, start + 1, this.pos);
    this.pos += extra;
    let at = start;
    let rest = length;
    while (rest >= 0x80) {
      this.buf[at++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.buf[at] = rest;
  }
}

/** Writes string field `no` unless it is empty (proto3 leaves a default out). */
export function writeStringField(writer: ProtoWriter, no: number, value: string | undefined): void {
  if (value === undefined || value === "") return;
  writer.tag(no, LEN);
  writer.string(value);
}

/** Writes enum (or int32) field `no` unless it is 0. */
export function writeEnumField(writer: ProtoWriter, no: number, value: number): void {
  if (value === 0) return;
  writer.tag(no, VARINT);
  writer.varint(value);
}

/** Writes message field `no`, its fields written by `body`. */
export function writeNested(writer: ProtoWriter, no: number, body: () => void): void {
  writer.tag(no, LEN);
  const start = writer.open();
  body();
  writer.close(start);
}
