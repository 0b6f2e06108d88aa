/**
 * HTTP/2 (RFC 9113) over a plain TCP socket, as much as unary gRPC between the engine and the
 * plugin needs, both ways: the plugin serves the engine's calls on connections it accepts, and
 * calls the engine's `Log` on one it opens. Node's own `http2` costs about 42 M instructions to
 * load (a sixth of the plugin's start) and cannot be in a startup snapshot; this module loads with
 * `net` only.
 *
 * What it does: the connection preface and SETTINGS both ways, streams opened by HEADERS (and
 * CONTINUATION), DATA in and out within the peer's flow-control windows and frame size (an answer
 * larger than a window waits for the peer's WINDOW_UPDATE), windows this side gives back as it
 * reads, PING answered, RST_STREAM and GOAWAY honoured. What it does not: server push, priorities
 * (read and ignored), TLS (the engine and its plugins talk in clear on 127.0.0.1), and any limit on
 * concurrent streams (the engine's own limit is what bounds them). A frame this side cannot read
 * ends the connection with GOAWAY.
 */
import type { Socket } from "node:net";
import { encodeHeaders, HpackDecoder, type HeaderField } from "./hpack";

/** Frame types. */
const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const PUSH_PROMISE = 0x5;
const PING = 0x6;
const GOAWAY = 0x7;
const WINDOW_UPDATE = 0x8;
const CONTINUATION = 0x9;

/** Flags. */
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY_FLAG = 0x20;

/** Settings. */
const SETTINGS_ENABLE_PUSH = 0x2;
const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const SETTINGS_MAX_FRAME_SIZE = 0x5;

/** Error codes. */
const NO_ERROR = 0x0;
const PROTOCOL_ERROR = 0x1;
const FLOW_CONTROL_ERROR = 0x3;
const COMPRESSION_ERROR = 0x9;

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
/** The window every stream and the connection start with (RFC 9113 6.9.2). */
const DEFAULT_WINDOW = 65_535;
const DEFAULT_FRAME_SIZE = 16_384;
/**
 * The window this side gives each stream and the connection: 16 MiB, so a large request (a
 * stack's schema, a thousand properties) streams in without waiting for this side's updates.
 */
const RECEIVE_WINDOW = 16 * 1024 * 1024;
/** The largest frame this side reads (frames beyond the default size only if the peer ignores our settings). */
const MAX_READ_FRAME = 16 * 1024 * 1024;

/** One stream of a connection: the peer's headers, body and trailers as they come, what this side still sends. */
export interface Stream {
  readonly id: number;
  /** The first header block: a request's, or an answer's. */
  headers?: HeaderField[];
  /** The header block after the data: an answer's trailers. */
  trailers?: HeaderField[];
  /** The body's DATA payloads, in order. */
  readonly body: Buffer[];
  /** The body's length so far. */
  bodyLength: number;
  /** The peer ended its side. */
  remoteEnded: boolean;
  /** The stream was reset or its connection closed: nothing more is sent on it. */
  reset: boolean;
}

interface SendingStream extends Stream {
  sendWindow: number;
  /** DATA still to send, and the header block (trailers) after it. */
  pending: Buffer[];
  pendingEnd: "data" | readonly HeaderField[] | undefined;
  /** This side ended the stream (END_STREAM sent). */
  localEnded: boolean;
  /** Octets received since this side last gave the window back. */
  unacknowledged: number;
}

/** What a connection tells its owner. */
export interface ConnectionEvents {
  /** The peer ended its side of `stream` (its headers, body and trailers all read). */
  ended(stream: Stream): void;
  /** The peer reset `stream`, or the connection closed with it open. */
  aborted?(stream: Stream): void;
  /** The connection closed. */
  closed?(): void;
}

/** A failure of the connection's protocol: GOAWAY with `code`. */
class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** One HTTP/2 connection over `socket`, as the server (it reads the preface) or the client (it writes it). */
export class Connection {
  private readonly streams = new Map<number, SendingStream>();
  private readonly decoder = new HpackDecoder();
  private buffered: Buffer = Buffer.alloc(0);
  private prefaceRead: boolean;
  private nextStreamId = 1;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerFrameSize = DEFAULT_FRAME_SIZE;
  private connectionSendWindow = DEFAULT_WINDOW;
  private connectionUnacknowledged = 0;
  /** The header block being read: its stream, its fragments, and whether it ends the stream. */
  private headerBlock: { stream: number; fragments: Buffer[]; endStream: boolean } | undefined;
  private readonly outgoing: Buffer[] = [];
  private flushing = false;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly role: "server" | "client",
    private readonly events: ConnectionEvents,
  ) {
    this.prefaceRead = role === "client";
    socket.setNoDelay(true);
    if (role === "client") this.write(PREFACE);
    this.frame(SETTINGS, 0, 0, settingsPayload(role));
    this.frame(WINDOW_UPDATE, 0, 0, uint32(RECEIVE_WINDOW - DEFAULT_WINDOW));
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", () => this.close());
    socket.on("close", () => this.close());
  }

  /** Whether the connection is gone (a client opens another). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Opens a stream (client): its request headers, then its body, ended. */
  request(headers: readonly HeaderField[], body: Buffer): Stream {
    const stream = this.open(this.nextStreamId);
    this.nextStreamId += 2;
    this.sendHeaders(stream.id, headers, false);
    this.sendData(stream, [body], "data");
    return stream;
  }

  /** Answers `stream` (server): headers, body and trailers, the trailers ending it. */
  respond(
    stream: Stream,
    headers: readonly HeaderField[],
    body: Buffer,
    trailers: readonly HeaderField[],
  ): void {
    const sending = this.streams.get(stream.id);
    if (!sending || sending.reset || this.closed) return;
    this.sendHeaders(stream.id, headers, false);
    this.sendData(sending, [body], trailers);
  }

  /** Answers `stream` with one header block that ends it (gRPC's trailers-only answer). */
  respondHeadersOnly(stream: Stream, headers: readonly HeaderField[]): void {
    const sending = this.streams.get(stream.id);
    if (!sending || sending.reset || this.closed) return;
    this.sendHeaders(stream.id, headers, true);
    this.sent(sending);
  }

  /** Ends the connection: GOAWAY, then the socket. */
  close(code = NO_ERROR): void {
    if (this.closed) return;
    if (!this.socket.destroyed) {
      const lastStream = Math.max(0, ...this.streams.keys());
      const payload = Buffer.alloc(8);
      payload.writeUInt32BE(lastStream & 0x7fffffff, 0);
      payload.writeUInt32BE(code, 4);
      this.frame(GOAWAY, 0, 0, payload);
      this.flush();
      this.socket.end();
    }
    this.closed = true;
    for (const stream of this.streams.values()) this.abort(stream);
    this.streams.clear();
    this.events.closed?.();
  }

  private open(id: number): SendingStream {
    const stream: SendingStream = {
      id,
      body: [],
      bodyLength: 0,
      remoteEnded: false,
      reset: false,
      sendWindow: this.peerInitialWindow,
      pending: [],
      pendingEnd: undefined,
      localEnded: false,
      unacknowledged: 0,
    };
    this.streams.set(id, stream);
    return stream;
  }

  private abort(stream: SendingStream): void {
    if (stream.reset) return;
    stream.reset = true;
    stream.pending = [];
    this.events.aborted?.(stream);
  }

  /** Drops a stream both sides have ended. */
  private forget(stream: SendingStream): void {
    if (stream.remoteEnded && stream.localEnded) this.streams.delete(stream.id);
  }

  private sendHeaders(id: number, headers: readonly HeaderField[], endStream: boolean): void {
    const block = encodeHeaders(headers);
    const flags = endStream ? END_STREAM : 0;
    if (block.length <= this.peerFrameSize) {
      this.frame(HEADERS, flags | END_HEADERS, id, block);
      return;
    }
    for (let at = 0; at < block.length; at += this.peerFrameSize) {
      const fragment = block.subarray(at, at + this.peerFrameSize);
      const last = at + this.peerFrameSize >= block.length;
      this.frame(
        at === 0 ? HEADERS : CONTINUATION,
        (at === 0 ? flags : 0) | (last ? END_HEADERS : 0),
        id,
        fragment,
      );
    }
  }

  /** Queues `chunks` on `stream`, then `end`: END_STREAM on the last DATA, or these trailers. */
  private sendData(stream: SendingStream, chunks: Buffer[], end: "data" | readonly HeaderField[]): void {
    stream.pending.push(...chunks.filter((chunk) => chunk.length > 0));
    stream.pendingEnd = end;
    this.drain(stream);
  }

  /** Sends what the windows allow of `stream`'s queue, then its end once the queue is empty. */
  private drain(stream: SendingStream): void {
    while (stream.pending.length > 0 && !stream.reset) {
      const room = Math.min(stream.sendWindow, this.connectionSendWindow, this.peerFrameSize);
      if (room <= 0) return;
      const chunk = stream.pending[0];
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      if (part === chunk) stream.pending.shift();
      else stream.pending[0] = chunk.subarray(room);
      stream.sendWindow -= part.length;
      this.connectionSendWindow -= part.length;
      const last = stream.pending.length === 0 && stream.pendingEnd === "data";
      this.frame(DATA, last ? END_STREAM : 0, stream.id, part);
      if (last) return this.sent(stream);
    }
    if (stream.reset || stream.pending.length > 0 || stream.pendingEnd === undefined) return;
    // An empty body's end, or the trailers after the body.
    if (stream.pendingEnd === "data") this.frame(DATA, END_STREAM, stream.id, Buffer.alloc(0));
    else this.sendHeaders(stream.id, stream.pendingEnd, true);
    this.sent(stream);
  }

  /** This side ended `stream`. */
  private sent(stream: SendingStream): void {
    stream.pendingEnd = undefined;
    stream.localEnded = true;
    this.forget(stream);
  }

  private frame(type: number, flags: number, stream: number, payload: Buffer): void {
    const header = Buffer.alloc(9);
    header.writeUIntBE(payload.length, 0, 3);
    header[3] = type;
    header[4] = flags;
    header.writeUInt32BE(stream, 5);
    this.write(header);
    if (payload.length > 0) this.write(payload);
  }

  /** Writes are gathered and sent together at the end of the current turn. */
  private write(bytes: Buffer): void {
    if (this.closed) return;
    this.outgoing.push(bytes);
    if (!this.flushing) {
      this.flushing = true;
      queueMicrotask(() => this.flush());
    }
  }

  private flush(): void {
    this.flushing = false;
    if (this.outgoing.length === 0 || this.socket.destroyed) return;
    const bytes = this.outgoing.length === 1 ? this.outgoing[0] : Buffer.concat(this.outgoing);
    this.outgoing.length = 0;
    this.socket.write(bytes);
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    try {
      if (!this.prefaceRead) {
        if (this.buffered.length < PREFACE.length) return;
        if (!this.buffered.subarray(0, PREFACE.length).equals(PREFACE))
          throw new ConnectionError(PROTOCOL_ERROR, "not an HTTP/2 connection preface");
        this.buffered = this.buffered.subarray(PREFACE.length);
        this.prefaceRead = true;
      }
      while (this.buffered.length >= 9 && !this.closed) {
        const length = this.buffered.readUIntBE(0, 3);
        if (length > MAX_READ_FRAME) throw new ConnectionError(PROTOCOL_ERROR, `a frame of ${length} octets`);
        if (this.buffered.length < 9 + length) return;
        const type = this.buffered[3];
        const flags = this.buffered[4];
        const id = this.buffered.readUInt32BE(5) & 0x7fffffff;
        const payload = this.buffered.subarray(9, 9 + length);
        this.buffered = this.buffered.subarray(9 + length);
        this.onFrame(type, flags, id, payload);
      }
    } catch (err) {
      this.close(err instanceof ConnectionError ? err.code : COMPRESSION_ERROR);
    }
  }

  private onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.headerBlock && type !== CONTINUATION)
      throw new ConnectionError(PROTOCOL_ERROR, "a header block interrupted");
    switch (type) {
      case DATA:
        return this.onData(flags, id, payload);
      case HEADERS: {
        let fragment = unpadded(flags, payload);
        if (flags & PRIORITY_FLAG) fragment = fragment.subarray(5);
        this.headerBlock = { stream: id, fragments: [fragment], endStream: (flags & END_STREAM) !== 0 };
        if (flags & END_HEADERS) this.onHeaderBlock();
        return;
      }
      case CONTINUATION:
        if (!this.headerBlock || this.headerBlock.stream !== id)
          throw new ConnectionError(PROTOCOL_ERROR, "a CONTINUATION without its HEADERS");
        this.headerBlock.fragments.push(payload);
        if (flags & END_HEADERS) this.onHeaderBlock();
        return;
      case RST_STREAM: {
        const stream = this.streams.get(id);
        if (stream) {
          this.streams.delete(id);
          this.abort(stream);
        }
        return;
      }
      case SETTINGS:
        if (!(flags & ACK)) this.onSettings(payload);
        return;
      case PUSH_PROMISE:
        throw new ConnectionError(PROTOCOL_ERROR, "a PUSH_PROMISE, push being disabled");
      case PING:
        if (!(flags & ACK)) this.frame(PING, ACK, 0, Buffer.from(payload));
        return;
      case GOAWAY:
        // The peer opens no more streams; those open finish (the engine ends the connection itself).
        return;
      case WINDOW_UPDATE:
        return this.onWindowUpdate(id, payload);
      default:
        // PRIORITY and unknown frame types are ignored (RFC 9113 4.1, 5.3.2).
        return;
    }
  }

  private onHeaderBlock(): void {
    const block = this.headerBlock as NonNullable<Connection["headerBlock"]>;
    this.headerBlock = undefined;
    const fields = this.decoder.decode(
      block.fragments.length === 1 ? block.fragments[0] : Buffer.concat(block.fragments),
    );
    let stream = this.streams.get(block.stream);
    if (!stream) {
      // A stream the peer opens (the engine's call), or one already forgotten (ignored).
      if (this.role !== "server" || block.stream % 2 === 0) return;
      stream = this.open(block.stream);
    }
    if (stream.headers === undefined) stream.headers = fields;
    else stream.trailers = fields;
    if (block.endStream) this.onRemoteEnd(stream);
  }

  private onData(flags: number, id: number, payload: Buffer): void {
    // Flow control counts the whole payload, padding included.
    this.connectionUnacknowledged += payload.length;
    if (this.connectionUnacknowledged >= RECEIVE_WINDOW / 2) {
      this.frame(WINDOW_UPDATE, 0, 0, uint32(this.connectionUnacknowledged));
      this.connectionUnacknowledged = 0;
    }
    const stream = this.streams.get(id);
    if (!stream || stream.remoteEnded) return;
    const data = unpadded(flags, payload);
    if (data.length > 0) {
      stream.body.push(data);
      stream.bodyLength += data.length;
    }
    if (flags & END_STREAM) {
      this.onRemoteEnd(stream);
      return;
    }
    stream.unacknowledged += payload.length;
    if (stream.unacknowledged >= RECEIVE_WINDOW / 2) {
      this.frame(WINDOW_UPDATE, 0, id, uint32(stream.unacknowledged));
      stream.unacknowledged = 0;
    }
  }

  private onRemoteEnd(stream: SendingStream): void {
    stream.remoteEnded = true;
    this.forget(stream);
    this.events.ended(stream);
  }

  private onSettings(payload: Buffer): void {
    if (payload.length % 6 !== 0) throw new ConnectionError(PROTOCOL_ERROR, "a SETTINGS frame's length");
    for (let at = 0; at < payload.length; at += 6) {
      const id = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (id === SETTINGS_INITIAL_WINDOW_SIZE) {
        if (value > 0x7fffffff) throw new ConnectionError(FLOW_CONTROL_ERROR, "an initial window too large");
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const stream of this.streams.values()) stream.sendWindow += delta;
      } else if (id === SETTINGS_MAX_FRAME_SIZE) {
        this.peerFrameSize = value;
      }
    }
    this.frame(SETTINGS, ACK, 0, Buffer.alloc(0));
    for (const stream of this.streams.values()) this.drain(stream);
  }

  private onWindowUpdate(id: number, payload: Buffer): void {
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (id === 0) {
      this.connectionSendWindow += increment;
      for (const stream of this.streams.values()) this.drain(stream);
      return;
    }
    const stream = this.streams.get(id);
    if (!stream) return;
    stream.sendWindow += increment;
    this.drain(stream);
  }
}

/** This side's SETTINGS: its window, and (a client) no push. */
function settingsPayload(role: "server" | "client"): Buffer {
  const settings: [number, number][] = [[SETTINGS_INITIAL_WINDOW_SIZE, RECEIVE_WINDOW]];
  if (role === "client") settings.push([SETTINGS_ENABLE_PUSH, 0]);
  const payload = Buffer.alloc(6 * settings.length);
  settings.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, 6 * i);
    payload.writeUInt32BE(value, 6 * i + 2);
  });
  return payload;
}

/** A frame's payload without its padding (PADDED: a length octet first, that many octets last). */
function unpadded(flags: number, payload: Buffer): Buffer {
  if (!(flags & PADDED)) return payload;
  const padding = payload[0];
  if (padding >= payload.length) throw new ConnectionError(PROTOCOL_ERROR, "padding longer than its frame");
  return payload.subarray(1, payload.length - padding);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value, 0);
  return bytes;
}
