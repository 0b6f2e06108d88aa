/**
 * Unary gRPC over this folder's HTTP/2 (http2.ts), both ways: the plugin's server, which the engine
 * calls, and a client for the engine's `Log`. The messages are the codec's (providerMessages.ts):
 * each method names its path and its request's and answer's coding, as grpc-js's service
 * definitions do. gRPC's framing: each message after a byte that says it is not compressed (this
 * side never compresses and refuses what is) and its length; the status in trailers
 * (`grpc-status`, `grpc-message` percent-encoded, details in `grpc-status-details-bin`), or in the
 * answer's only header block when the call failed before any message.
 */
import * as net from "node:net";
import { Connection, type Stream } from "./http2";
import type { HeaderField } from "./hpack";

/** gRPC's status codes the plugin gives or reads. */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

/** A method's path and its messages' coding. */
export interface UnaryMethod {
  path: string;
  requestSerialize(value: never): Buffer;
  requestDeserialize(bytes: Buffer): unknown;
  responseSerialize(value: never): Buffer;
  responseDeserialize(bytes: Buffer): unknown;
}

/**
 * Method `name` of `service` as a server serves it: its requests decoded by `decode`, its answers
 * encoded by `encode` (the other two directions, a client's, are never taken).
 */
export function servedMethod(
  service: string,
  name: string,
  decode: (bytes: Buffer) => unknown,
  encode: (value: never) => Buffer,
): UnaryMethod {
  return {
    path: `/${service}/${name}`,
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize: decode,
    responseSerialize: encode,
    responseDeserialize: () => ({}),
  };
}

/** A method's handler: the decoded request in, the answer out, or a failure thrown. */
export type UnaryHandler = (request: never) => unknown;

/** A call's failure as its trailers carry it: `metadata` are binary headers (`-bin`) or text ones. */
export class GrpcFailure extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    readonly metadata: Readonly<Record<string, string | Buffer>> = {},
  ) {
    super(details);
  }
}

/** The answer's headers, before its message (frozen: their block is encoded once, hpack.ts). */
const ANSWER_HEADERS: readonly HeaderField[] = Object.freeze([
  Object.freeze([":status", "200"]) as HeaderField,
  Object.freeze(["content-type", "application/grpc"]) as HeaderField,
]);
const OK_TRAILERS: readonly HeaderField[] = Object.freeze([
  Object.freeze(["grpc-status", "0"]) as HeaderField,
]);

/** A server's options. */
export interface ServeOptions {
  /** The largest request message read (a larger one fails RESOURCE_EXHAUSTED). */
  maxReceiveBytes: number;
}

/**
 * Serves `handlers` (by `methods`' names) on a free port of 127.0.0.1; resolves with the port once
 * it listens. A handler runs when its request's stream has ended; calls run concurrently.
 */
export function serveUnary(
  methods: Readonly<Record<string, UnaryMethod>>,
  handlers: Readonly<Partial<Record<string, UnaryHandler>>>,
  options: ServeOptions,
): Promise<{ port: number; server: net.Server }> {
  const routes = new Map<string, { method: UnaryMethod; handler: UnaryHandler }>();
  for (const [name, method] of Object.entries(methods)) {
    const handler = handlers[name];
    if (handler) routes.set(method.path, { method, handler });
  }
  const server = net.createServer((socket) => {
    const connection: Connection = new Connection(socket, "server", {
      ended: (stream) => void answer(connection, stream, routes, options),
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    listenOnLoopback(server, () => {
      server.off("error", reject);
      resolve({ port: (server.address() as net.AddressInfo).port, server });
    });
  });
}

/** The address the plugin serves on, as the engine's plugins do: the loopback, never another interface. */
const LOOPBACK = "127.0.0.1";

/** libuv's TCP handle, as `net` takes one to serve on (`server.listen(handle)`). */
interface TcpWrap {
  TCP: new (type: number) => { bind(address: string, port: number): number; close(): void };
  constants: { SERVER: number };
}

/**
 * `server.listen(0, LOOPBACK, listening)`, without the host's lookup. Node's `listen(port, host)`
 * looks its host up (`dns.lookup`) even when it is an address, then tests the answer against its
 * IPv6 pattern to skip a link-local address (Node 22.23 does): compiling that pattern is 3-4
 * ms of every start, a tenth of the release's first answer (docs/benchmarks.md, 2026-12-07). So the
 * socket is bound here, on libuv's TCP handle that `net` itself makes (`process.binding("tcp_wrap")`,
 * which Node still offers for this), and `net` serves on that handle as on its own. Where the handle
 * cannot be had or bound (a Node without it, the permission model), or where using it would print
 * DEP0111's warning (pending deprecations asked for), Node's `listen` binds as before.
 */
function listenOnLoopback(server: net.Server, listening: () => void): void {
  const handle = boundLoopbackHandle();
  if (handle) server.listen(handle, listening);
  else server.listen(0, LOOPBACK, listening);
}

/** A TCP handle bound to a free port of the loopback, or undefined (see listenOnLoopback). */
function boundLoopbackHandle(): object | undefined {
  const pending = "--pending-deprecation";
  if (
    process.execArgv.includes(pending) ||
    (process.env.NODE_OPTIONS ?? "").includes(pending) ||
    process.env.NODE_PENDING_DEPRECATION === "1"
  )
    return undefined;
  let tcpWrap: TcpWrap;
  try {
    tcpWrap = (process as unknown as { binding(name: string): TcpWrap }).binding("tcp_wrap");
  } catch {
    return undefined;
  }
  if (typeof tcpWrap?.TCP !== "function" || typeof tcpWrap.constants?.SERVER !== "number") return undefined;
  const handle = new tcpWrap.TCP(tcpWrap.constants.SERVER);
  if (handle.bind(LOOPBACK, 0) !== 0) {
    handle.close();
    return undefined;
  }
  return handle;
}

async function answer(
  connection: Connection,
  stream: Stream,
  routes: Map<string, { method: UnaryMethod; handler: UnaryHandler }>,
  options: ServeOptions,
): Promise<void> {
  let reply: Buffer;
  try {
    const path = header(stream.headers, ":path") ?? "";
    const route = routes.get(path);
    if (!route)
      throw new GrpcFailure(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`);
    const message = onlyMessage(stream, options.maxReceiveBytes);
    let request: unknown;
    try {
      request = route.method.requestDeserialize(message);
    } catch (err) {
      throw new GrpcFailure(Status.INTERNAL, `Error deserializing request: ${messageOf(err)}`);
    }
    const response = await route.handler(request as never);
    try {
      reply = route.method.responseSerialize(response as never);
    } catch (err) {
      throw new GrpcFailure(Status.INTERNAL, `Error serializing response: ${messageOf(err)}`);
    }
  } catch (err) {
    const failure = err instanceof GrpcFailure ? err : new GrpcFailure(Status.UNKNOWN, messageOf(err));
    connection.respondHeadersOnly(stream, [...ANSWER_HEADERS, ...statusFields(failure)]);
    return;
  }
  connection.respond(stream, ANSWER_HEADERS, framed(reply), OK_TRAILERS);
}

/** The one message of a unary request's body. */
function onlyMessage(stream: Stream, maxBytes: number): Buffer {
  const body = stream.body.length === 1 ? stream.body[0] : Buffer.concat(stream.body);
  if (body.length < 5) throw new GrpcFailure(Status.INTERNAL, "a request without its message");
  if (body[0] !== 0)
    throw new GrpcFailure(Status.UNIMPLEMENTED, "a compressed message: this plugin reads only identity");
  const length = body.readUInt32BE(1);
  if (length > maxBytes)
    throw new GrpcFailure(
      Status.RESOURCE_EXHAUSTED,
      `Received message larger than max (${length} vs. ${maxBytes})`,
    );
  if (body.length !== 5 + length) throw new GrpcFailure(Status.INTERNAL, "a request's message is incomplete");
  return body.subarray(5);
}

/** A message with gRPC's prefix: not compressed, its length. */
function framed(message: Buffer): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

/** The trailers that carry `failure`. */
function statusFields(failure: GrpcFailure): HeaderField[] {
  const fields: HeaderField[] = [
    ["grpc-status", String(failure.code)],
    ["grpc-message", percentEncoded(failure.details)],
  ];
  for (const [name, value] of Object.entries(failure.metadata)) {
    fields.push([name, typeof value === "string" ? value : value.toString("base64")]);
  }
  return fields;
}

/** gRPC's `grpc-message`: UTF-8, every octet outside printable ASCII (and `%`) as %XX. */
export function percentEncoded(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** `grpc-message` read back. */
export function percentDecoded(text: string): string {
  return Buffer.from(
    text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");
}

function header(fields: readonly HeaderField[] | undefined, name: string): string | undefined {
  return fields?.find(([field]) => field === name)?.[1];
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A unary call's outcome: its status, and its answer when it succeeded. */
export interface CallOutcome {
  code: number;
  details: string;
  response?: unknown;
}

/** A client of the server at `address` (host:port, as the engine gives its own), connected at its first call. */
export class UnaryClient {
  private connection: Connection | undefined;
  private readonly waiting = new Map<number, (stream: Stream) => void>();

  constructor(private readonly address: string) {}

  /** Calls `method` with `request`; never rejects: a failure is its outcome. */
  call(method: UnaryMethod, request: unknown): Promise<CallOutcome> {
    const connection = this.connected();
    const stream = connection.request(
      [
        [":method", "POST"],
        [":scheme", "http"],
        [":path", method.path],
        [":authority", this.address],
        ["content-type", "application/grpc"],
        ["te", "trailers"],
      ],
      framed(method.requestSerialize(request as never)),
    );
    return new Promise((resolve) => this.waiting.set(stream.id, (ended) => resolve(outcome(method, ended))));
  }

  /** Ends the connection. */
  close(): void {
    this.connection?.close();
  }

  private connected(): Connection {
    if (this.connection && !this.connection.isClosed) return this.connection;
    const at = this.address.lastIndexOf(":");
    const host = this.address.slice(0, at).replace(/^\[(.*)\]$/, "$1");
    const socket = net.connect({ host, port: Number(this.address.slice(at + 1)) });
    // Nothing waits on a refused connection but its calls, answered UNAVAILABLE when it closes.
    socket.on("error", () => undefined);
    const connection = new Connection(socket, "client", {
      ended: (stream) => this.settle(stream),
      aborted: (stream) => this.settle(stream),
    });
    this.connection = connection;
    return connection;
  }

  private settle(stream: Stream): void {
    const done = this.waiting.get(stream.id);
    this.waiting.delete(stream.id);
    done?.(stream);
  }
}

/** A call's outcome from its ended (or aborted) stream. */
function outcome(method: UnaryMethod, stream: Stream): CallOutcome {
  const fields = stream.trailers ?? stream.headers;
  const code = header(fields, "grpc-status");
  if (code === undefined)
    return { code: stream.reset ? Status.UNAVAILABLE : Status.UNKNOWN, details: "no status" };
  const details = percentDecoded(header(fields, "grpc-message") ?? "");
  if (Number(code) !== Status.OK) return { code: Number(code), details };
  const body = Buffer.concat(stream.body);
  return { code: Status.OK, details, response: method.responseDeserialize(body.subarray(5)) };
}
