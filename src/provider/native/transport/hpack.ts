/**
 * HPACK (RFC 7541), the header compression of HTTP/2, as much as the plugin's gRPC needs: a
 * decoder of everything a peer may send (indexed fields, literals with and without indexing, the
 * dynamic table and its size updates, Huffman-coded strings: Go's gRPC, the engine's, codes its
 * headers that way) and an encoder that writes only static-table indexes and plain literals, never
 * indexing, so the peer's table is never touched. Header names and values are octets, held as
 * latin1 strings.
 */

/** A header field: name and value. */
export type HeaderField = readonly [name: string, value: string];

/** RFC 7541 Appendix A: the static table, index 1 first. */
const STATIC: readonly HeaderField[] = [
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "200"],
  [":status", "204"],
  [":status", "206"],
  [":status", "304"],
  [":status", "400"],
  [":status", "404"],
  [":status", "500"],
  ...[
    "accept-charset",
    "accept-encoding",
    "accept-language",
    "accept-ranges",
    "accept",
    "access-control-allow-origin",
    "age",
    "allow",
    "authorization",
    "cache-control",
    "content-disposition",
    "content-encoding",
    "content-language",
    "content-length",
    "content-location",
    "content-range",
    "content-type",
    "cookie",
    "date",
    "etag",
    "expect",
    "expires",
    "from",
    "host",
    "if-match",
    "if-modified-since",
    "if-none-match",
    "if-range",
    "if-unmodified-since",
    "last-modified",
    "link",
    "location",
    "max-forwards",
    "proxy-authenticate",
    "proxy-authorization",
    "range",
    "referer",
    "refresh",
    "retry-after",
    "server",
    "set-cookie",
    "strict-transport-security",
    "transfer-encoding",
    "user-agent",
    "vary",
    "via",
    "www-authenticate",
  ].map((name): HeaderField => [name, name === "accept-encoding" ? "gzip, deflate" : ""]),
];

/**
 * RFC 7541 Appendix B: the Huffman code of each octet, `code:length` in hex and decimal (the
 * end-of-string code, 0x3fffffff of 30 bits, is the 257th). Read once, at the first Huffman string.
 */
const HUFFMAN_CODES = [
  "1ff8:13 7fffd8:23 fffffe2:28 fffffe3:28 fffffe4:28 fffffe5:28 fffffe6:28 fffffe7:28",
  "fffffe8:28 ffffea:24 3ffffffc:30 fffffe9:28 fffffea:28 3ffffffd:30 fffffeb:28 fffffec:28",
  "fffffed:28 fffffee:28 fffffef:28 ffffff0:28 ffffff1:28 ffffff2:28 3ffffffe:30 ffffff3:28",
  "ffffff4:28 ffffff5:28 ffffff6:28 ffffff7:28 ffffff8:28 ffffff9:28 ffffffa:28 ffffffb:28",
  "14:6 3f8:10 3f9:10 ffa:12 1ff9:13 15:6 f8:8 7fa:11",
  "3fa:10 3fb:10 f9:8 7fb:11 fa:8 16:6 17:6 18:6",
  "0:5 1:5 2:5 19:6 1a:6 1b:6 1c:6 1d:6",
  "1e:6 1f:6 5c:7 fb:8 7ffc:15 20:6 ffb:12 3fc:10",
  "1ffa:13 21:6 5d:7 5e:7 5f:7 60:7 61:7 62:7",
  "63:7 64:7 65:7 66:7 67:7 68:7 69:7 6a:7",
  "6b:7 6c:7 6d:7 6e:7 6f:7 70:7 71:7 72:7",
  "fc:8 73:7 fd:8 1ffb:13 7fff0:19 1ffc:13 3ffc:14 22:6",
  "7ffd:15 3:5 23:6 4:5 24:6 5:5 25:6 26:6",
  "27:6 6:5 74:7 75:7 28:6 29:6 2a:6 7:5",
  "2b:6 76:7 2c:6 8:5 9:5 2d:6 77:7 78:7",
  "79:7 7a:7 7b:7 7ffe:15 7fc:11 3ffd:14 1ffd:13 ffffffc:28",
  "fffe6:20 3fffd2:22 fffe7:20 fffe8:20 3fffd3:22 3fffd4:22 3fffd5:22 7fffd9:23",
  "3fffd6:22 7fffda:23 7fffdb:23 7fffdc:23 7fffdd:23 7fffde:23 ffffeb:24 7fffdf:23",
  "ffffec:24 ffffed:24 3fffd7:22 7fffe0:23 ffffee:24 7fffe1:23 7fffe2:23 7fffe3:23",
  "7fffe4:23 1fffdc:21 3fffd8:22 7fffe5:23 3fffd9:22 7fffe6:23 7fffe7:23 ffffef:24",
  "3fffda:22 1fffdd:21 fffe9:20 3fffdb:22 3fffdc:22 7fffe8:23 7fffe9:23 1fffde:21",
  "7fffea:23 3fffdd:22 3fffde:22 fffff0:24 1fffdf:21 3fffdf:22 7fffeb:23 7fffec:23",
  "1fffe0:21 1fffe1:21 3fffe0:22 1fffe2:21 7fffed:23 3fffe1:22 7fffee:23 7fffef:23",
  "fffea:20 3fffe2:22 3fffe3:22 3fffe4:22 7ffff0:23 3fffe5:22 3fffe6:22 7ffff1:23",
  "3ffffe0:26 3ffffe1:26 fffeb:20 7fff1:19 3fffe7:22 7ffff2:23 3fffe8:22 1ffffec:25",
  "3ffffe2:26 3ffffe3:26 3ffffe4:26 7ffffde:27 7ffffdf:27 3ffffe5:26 fffff1:24 1ffffed:25",
  "7fff2:19 1fffe3:21 3ffffe6:26 7ffffe0:27 7ffffe1:27 3ffffe7:26 7ffffe2:27 fffff2:24",
  "1fffe4:21 1fffe5:21 3ffffe8:26 3ffffe9:26 ffffffd:28 7ffffe3:27 7ffffe4:27 7ffffe5:27",
  "fffec:20 fffff3:24 fffed:20 1fffe6:21 3fffe9:22 1fffe7:21 1fffe8:21 7ffff3:23",
  "3fffea:22 3fffeb:22 1ffffee:25 1ffffef:25 fffff4:24 fffff5:24 3ffffea:26 7ffff4:23",
  "3ffffeb:26 7ffffe6:27 3ffffec:26 3ffffed:26 7ffffe7:27 7ffffe8:27 7ffffe9:27 7ffffea:27",
  "7ffffeb:27 ffffffe:28 7ffffec:27 7ffffed:27 7ffffee:27 7ffffef:27 7fffff0:27 3ffffee:26",
].join(" ");

/** The end-of-string symbol. */
const EOS = 256;

/**
 * The Huffman code as a binary tree in one array: node n's children at 2n and 2n+1, a leaf holding
 * -(symbol + 1).
 */
let huffmanTree: Int32Array | undefined;

function huffmanTreeOf(): Int32Array {
  if (huffmanTree) return huffmanTree;
  const codes = HUFFMAN_CODES.split(" ").map((entry) => entry.split(":"));
  codes.push(["3fffffff", "30"]);
  const tree = new Int32Array(2 * 2 * 257);
  let nodes = 1;
  codes.forEach(([hex, bits], symbol) => {
    const code = parseInt(hex, 16);
    const length = Number(bits);
    let node = 0;
    for (let bit = length - 1; bit >= 0; bit--) {
      const slot = 2 * node + ((code >>> bit) & 1);
      if (bit === 0) tree[slot] = -(symbol + 1);
      else {
        if (tree[slot] === 0) tree[slot] = nodes++;
        node = tree[slot];
      }
    }
  });
  huffmanTree = tree;
  return tree;
}

/** Decodes a Huffman-coded string (RFC 7541 5.2): the padding is at most 7 bits, all ones. */
function huffmanDecode(bytes: Buffer): string {
  const tree = huffmanTreeOf();
  const out: number[] = [];
  let node = 0;
  let depth = 0;
  let ones = true;
  for (const byte of bytes) {
    for (let bit = 7; bit >= 0; bit--) {
      const b = (byte >> bit) & 1;
      const next = tree[2 * node + b];
      depth++;
      ones &&= b === 1;
      if (next < 0) {
        const symbol = -next - 1;
        if (symbol === EOS) throw new HpackError("a Huffman string holds the end-of-string symbol");
        out.push(symbol);
        node = 0;
        depth = 0;
        ones = true;
      } else node = next;
    }
  }
  if (depth > 7 || !ones) throw new HpackError("a Huffman string's padding is not a prefix of end-of-string");
  return Buffer.from(out).toString("latin1");
}

/** A header block the decoder cannot read: the connection cannot go on (COMPRESSION_ERROR). */
export class HpackError extends Error {}

/** Octets a field takes in a dynamic table (RFC 7541 4.1). */
const entrySize = ([name, value]: HeaderField) => name.length + value.length + 32;

/** The decoder of one connection's header blocks, with the dynamic table the peer fills. */
export class HpackDecoder {
  private readonly table: HeaderField[] = [];
  private size = 0;

  /** @param maxSize the table size this side advertises (SETTINGS_HEADER_TABLE_SIZE, 4,096 by default). */
  constructor(private maxSize = 4096) {}

  /** The fields of one whole header block (HEADERS and its CONTINUATIONs). */
  decode(block: Buffer): HeaderField[] {
    const fields: HeaderField[] = [];
    const reader = { block, at: 0 };
    while (reader.at < block.length) {
      const first = block[reader.at];
      if (first & 0x80) {
        fields.push(this.field(integer(reader, 7)));
      } else if (first & 0x40) {
        const field = this.literal(reader, 6);
        this.add(field);
        fields.push(field);
      } else if (first & 0x20) {
        const size = integer(reader, 5);
        if (size > 4096) throw new HpackError(`a dynamic table size update to ${size} exceeds 4096`);
        this.maxSize = size;
        this.evict(0);
      } else {
        fields.push(this.literal(reader, 4));
      }
    }
    return fields;
  }

  /** The field at `index` (1-based; the static table, then the dynamic table newest first). */
  private field(index: number): HeaderField {
    const field = index <= STATIC.length ? STATIC[index - 1] : this.table[index - STATIC.length - 1];
    if (index === 0 || field === undefined) throw new HpackError(`no header field at index ${index}`);
    return field;
  }

  private literal(reader: Reader, prefix: number): HeaderField {
    const index = integer(reader, prefix);
    const name = index === 0 ? string(reader) : this.field(index)[0];
    return [name, string(reader)];
  }

  private add(field: HeaderField): void {
    const size = entrySize(field);
    this.evict(size);
    if (size <= this.maxSize) {
      this.table.unshift(field);
      this.size += size;
    }
  }

  /** Drops the oldest entries until `room` more octets fit. */
  private evict(room: number): void {
    while (this.table.length > 0 && this.size + room > this.maxSize) {
      this.size -= entrySize(this.table.pop() as HeaderField);
    }
  }
}

interface Reader {
  block: Buffer;
  at: number;
}

/** An integer with an N-bit prefix (RFC 7541 5.1). */
function integer(reader: Reader, prefix: number): number {
  const max = (1 << prefix) - 1;
  if (reader.at >= reader.block.length) throw new HpackError("a header block ends inside an integer");
  let value = reader.block[reader.at++] & max;
  if (value < max) return value;
  let shift = 0;
  for (;;) {
    if (reader.at >= reader.block.length) throw new HpackError("a header block ends inside an integer");
    const byte = reader.block[reader.at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(byte & 0x80)) return value;
    if (shift > 28) throw new HpackError("a header block's integer is too large");
  }
}

/** A string literal (RFC 7541 5.2). */
function string(reader: Reader): string {
  if (reader.at >= reader.block.length) throw new HpackError("a header block ends before a string");
  const huffman = (reader.block[reader.at] & 0x80) !== 0;
  const length = integer(reader, 7);
  const end = reader.at + length;
  if (end > reader.block.length) throw new HpackError("a header block ends inside a string");
  const bytes = reader.block.subarray(reader.at, end);
  reader.at = end;
  return huffman ? huffmanDecode(bytes) : bytes.toString("latin1");
}

/** Static-table indexes by "name\0value" and by name (the first). */
let staticIndex: Map<string, number> | undefined;

function staticIndexOf(): Map<string, number> {
  if (staticIndex) return staticIndex;
  staticIndex = new Map();
  STATIC.forEach(([name, value], i) => {
    const byPair = `${name}\0${value}`;
    if (!staticIndex?.has(byPair)) staticIndex?.set(byPair, i + 1);
    if (!staticIndex?.has(name)) staticIndex?.set(name, i + 1);
  });
  return staticIndex;
}

/**
 * A header block for `fields`: a field of the static table by its index, any other as a literal
 * without indexing (its name by index where the static table has it), strings uncoded.
 */
export function encodeHeaders(fields: readonly HeaderField[]): Buffer {
  if (!Object.isFrozen(fields) || !fields.every((field) => Object.isFrozen(field)))
    return encodeFields(fields);
  let block = frozenBlocks.get(fields);
  if (block === undefined) frozenBlocks.set(fields, (block = encodeFields(fields)));
  return block;
}

/**
 * The blocks of frozen lists of frozen fields (the server's answer headers and trailers of a call
 * that succeeded, sent with every answer), each encoded once: this encoder keeps no dynamic table,
 * so a list's block is always the same bytes. Encoding them anew was about 1 % of the plugin's CPU
 * in a refresh (an inspector profile: 16 ms of 440 for 400 answers).
 */
const frozenBlocks = new WeakMap<readonly HeaderField[], Buffer>();

function encodeFields(fields: readonly HeaderField[]): Buffer {
  const index = staticIndexOf();
  const out: number[] = [];
  for (const [name, value] of fields) {
    const pair = index.get(`${name}\0${value}`);
    if (pair !== undefined) {
      writeInteger(out, pair, 7, 0x80);
      continue;
    }
    const named = index.get(name);
    writeInteger(out, named ?? 0, 4, 0x00);
    if (named === undefined) writeString(out, name);
    writeString(out, value);
  }
  return Buffer.from(out);
}

function writeInteger(out: number[], value: number, prefix: number, flags: number): void {
  const max = (1 << prefix) - 1;
  if (value < max) {
    out.push(flags | value);
    return;
  }
  out.push(flags | max);
  let rest = value - max;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

function writeString(out: number[], value: string): void {
  const bytes = Buffer.from(value, "latin1");
  writeInteger(out, bytes.length, 7, 0x00);
  for (const byte of bytes) out.push(byte);
}
