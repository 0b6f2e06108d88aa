/**
 * The plugin's own gRPC over HTTP/2 (src/provider/native/transport/), served to grpc-js's client
 * (the SDK's: nghttp2 underneath, Huffman-coded headers and HPACK's dynamic table, as Go's gRPC in
 * the engine sends them) and calling grpc-js's server: answers, failures with their status and
 * details, methods it does not serve, messages larger than every window and frame, calls at once,
 * a call the client gives up on. The real engine's calls are the e2e tests' (YAML, Go, Python, Java).
 */
import { grpc } from "../../../kit/sdkStubs";
import {
  GrpcFailure,
  percentDecoded,
  percentEncoded,
  serveUnary,
  Status,
  UnaryClient,
  type UnaryMethod,
} from "../../../../src/provider/native/transport/grpc";
import { encodeHeaders, HpackDecoder } from "../../../../src/provider/native/transport/hpack";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import type { Server } from "node:net";

const GRPC_MODULE = path.resolve(__dirname, "../../../../src/provider/native/transport/grpc.ts");

/* eslint-disable @typescript-eslint/no-explicit-any -- grpc-js's generic client */

/** A method whose messages are raw bytes: what was sent is what arrives. */
const method = (
  name: string,
): UnaryMethod & { requestStream: false; responseStream: false; originalName: string } => ({
  path: `/test.Echo/${name}`,
  requestStream: false,
  responseStream: false,
  originalName: name,
  requestSerialize: (value: Buffer) => value,
  requestDeserialize: (bytes: Buffer) => Buffer.from(bytes),
  responseSerialize: (value: Buffer) => value,
  responseDeserialize: (bytes: Buffer) => Buffer.from(bytes),
});
const METHODS = {
  echo: method("Echo"),
  fail: method("Fail"),
  hang: method("Hang"),
  missing: method("Missing"),
};

let server: Server;
let client: any;
let hung: () => void = () => undefined;
let hangStarted: () => void = () => undefined;

beforeAll(async () => {
  const served = await serveUnary(
    METHODS,
    {
      echo: (request: Buffer) => Promise.resolve(Buffer.concat([request, Buffer.from("!")])),
      fail: (request: Buffer) => {
        throw new GrpcFailure(Status.UNKNOWN, `failed: ${request.toString()} — 100% ✗`, {
          "grpc-status-details-bin": Buffer.from([0, 1, 2, 255]),
        });
      },
      hang: () =>
        new Promise<Buffer>((resolve) => {
          hung = () => resolve(Buffer.from("late"));
          hangStarted();
        }),
    },
    { maxReceiveBytes: 32 * 1024 * 1024 },
  );
  server = served.server;
  const Client = grpc.makeGenericClientConstructor(METHODS as any, "Echo");
  client = new Client(`127.0.0.1:${served.port}`, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": -1,
    "grpc.max_send_message_length": -1,
  });
});

afterAll(() => {
  client.close();
  server.close();
});

function call(name: string, request: Buffer): Promise<{ err: any; response?: Buffer }> {
  return new Promise((resolve) =>
    client[name](request, (err: any, response: Buffer) => resolve({ err, response })),
  );
}

test("an answer: the request's bytes reach the handler and its answer reaches the caller", async () => {
  const { err, response } = await call("echo", Buffer.from("héllo"));
  expect(err).toBeNull();
  expect(response?.toString()).toBe("héllo!");
});

test("an empty request and many calls on one connection (the caller's header table filling and evicting)", async () => {
  for (let i = 0; i < 300; i++) {
    const { err, response } = await call(
      "echo",
      Buffer.from(i === 0 ? "" : `call ${i} ${"x".repeat(i * 7)}`),
    );
    expect(err).toBeNull();
    expect(response?.toString()).toBe(i === 0 ? "!" : `call ${i} ${"x".repeat(i * 7)}!`);
  }
});

test("20 MB each way: beyond every frame, stream and connection window", async () => {
  const big = Buffer.alloc(20 * 1024 * 1024);
  for (let i = 0; i < big.length; i += 4096) big.writeUInt32BE(i, i);
  const { err, response } = await call("echo", big);
  expect(err).toBeNull();
  expect(response?.length).toBe(big.length + 1);
  expect(response?.subarray(0, big.length).equals(big)).toBe(true);
});

test("calls at once, answered in any order, each its own", async () => {
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => call("echo", Buffer.alloc(1000 * i, String(i % 10)))),
  );
  answers.forEach(({ err, response }, i) => {
    expect(err).toBeNull();
    expect(response?.equals(Buffer.concat([Buffer.alloc(1000 * i, String(i % 10)), Buffer.from("!")]))).toBe(
      true,
    );
  });
});

test("a failure: its code, its message (non-ASCII and % kept) and its binary details", async () => {
  const { err } = await call("fail", Buffer.from("box"));
  expect([err.code, err.details]).toEqual([Status.UNKNOWN, "failed: box — 100% ✗"]);
  expect(err.metadata.get("grpc-status-details-bin")).toEqual([Buffer.from([0, 1, 2, 255])]);
});

test("a method the server does not serve → UNIMPLEMENTED naming it", async () => {
  const { err } = await call("missing", Buffer.from("x"));
  expect(err.code).toBe(Status.UNIMPLEMENTED);
  expect(err.details).toContain("/test.Echo/Missing");
});

test("a request larger than the limit → RESOURCE_EXHAUSTED; the connection serves on", async () => {
  const { err } = await call("echo", Buffer.alloc(33 * 1024 * 1024));
  expect(err.code).toBe(Status.RESOURCE_EXHAUSTED);
  expect((await call("echo", Buffer.from("after"))).response?.toString()).toBe("after!");
});

test("a call the client cancels: its late answer is dropped and the connection serves on", async () => {
  const started = new Promise<void>((resolve) => (hangStarted = resolve));
  let cancelled: (err: any) => void = () => undefined;
  const ended = new Promise<any>((resolve) => (cancelled = resolve));
  const pending = client.hang(Buffer.from("x"), (err: any) => cancelled(err));
  await started;
  pending.cancel();
  expect((await ended).code).toBe(Status.CANCELLED);
  hung();
  expect((await call("echo", Buffer.from("still"))).response?.toString()).toBe("still!");
});

/** Serves no method, and gives the names looked up meanwhile and the address served on. */
async function servedWatchingLookups(): Promise<{ lookedUp: unknown[]; address: unknown }> {
  const dns = require("node:dns") as { lookup: (...args: unknown[]) => void };
  const nodeLookup = dns.lookup;
  const lookedUp: unknown[] = [];
  dns.lookup = (...args: unknown[]) => {
    lookedUp.push(args[0]);
    nodeLookup.apply(dns, args);
  };
  try {
    const { server } = await serveUnary(METHODS, {}, { maxReceiveBytes: 1024 });
    const address = server.address();
    server.close();
    return { lookedUp, address };
  } finally {
    dns.lookup = nodeLookup;
  }
}

test("the server listens on the loopback alone, with no lookup of its address", async () => {
  // Node's listen(port, host) looks an address up and tests the answer against its IPv6 pattern
  // (3-4 ms of every start to compile it); the plugin binds libuv's handle itself.
  expect(await servedWatchingLookups()).toEqual({
    lookedUp: [],
    address: expect.objectContaining({ address: "127.0.0.1", family: "IPv4" }),
  });
});

test("with pending deprecations asked for, the server listens through Node's own listen: no DEP0111 warning", async () => {
  process.env.NODE_PENDING_DEPRECATION = "1";
  try {
    expect(await servedWatchingLookups()).toEqual({
      lookedUp: ["127.0.0.1"],
      address: expect.objectContaining({ address: "127.0.0.1" }),
    });
  } finally {
    delete process.env.NODE_PENDING_DEPRECATION;
  }
  // Node reads --pending-deprecation at its start: a process started with it prints nothing.
  const served = spawnSync(
    process.execPath,
    [
      "--pending-deprecation",
      "-r",
      "ts-node/register/transpile-only",
      "-e",
      `require(${JSON.stringify(GRPC_MODULE)}).serveUnary({}, {}, { maxReceiveBytes: 1 })` +
        `.then(({ port, server }) => { console.log(port); server.close(); })`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  expect(served.stderr).toBe("");
  expect(served.stdout).toMatch(/^\d+\n$/);
});

describe("the client, against grpc-js's server", () => {
  let other: InstanceType<typeof grpc.Server>;
  let port: number;
  beforeAll(async () => {
    other = new grpc.Server();
    other.addService(METHODS as any, {
      echo: (c: any, done: any) => done(null, Buffer.concat([c.request, Buffer.from("?")])),
      fail: (_: any, done: any) => done({ code: Status.INTERNAL, details: "bad — ✗ 50%" }),
    });
    port = await new Promise<number>((resolve, reject) =>
      other.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
        err ? reject(err) : resolve(bound),
      ),
    );
  });
  afterAll(() => other.forceShutdown());

  test("answers, large ones and failures, on one connection", async () => {
    const ours = new UnaryClient(`127.0.0.1:${port}`);
    try {
      const big = Buffer.alloc(3 * 1024 * 1024, "z");
      const [small, large, failed] = await Promise.all([
        ours.call(METHODS.echo, Buffer.from("a")),
        ours.call(METHODS.echo, big),
        ours.call(METHODS.fail, Buffer.from("b")),
      ]);
      expect([small.code, (small.response as Buffer).toString()]).toEqual([Status.OK, "a?"]);
      expect((large.response as Buffer).length).toBe(big.length + 1);
      expect([failed.code, failed.details]).toEqual([Status.INTERNAL, "bad — ✗ 50%"]);
    } finally {
      ours.close();
    }
  });

  test("nothing listening: the call's outcome is UNAVAILABLE, nothing thrown", async () => {
    const closed = new UnaryClient("127.0.0.1:1");
    expect((await closed.call(METHODS.echo, Buffer.from("a"))).code).toBe(Status.UNAVAILABLE);
  });
});

test("HPACK: what the encoder writes, the decoder reads, static entries and literals alike", () => {
  const fields: [string, string][] = [
    [":status", "200"],
    ["content-type", "application/grpc"],
    ["grpc-message", percentEncoded("a – b %")],
    ["x-long", "v".repeat(300)],
  ];
  expect(new HpackDecoder().decode(encodeHeaders(fields))).toEqual(fields);
  expect(percentDecoded(percentEncoded("a – b %"))).toBe("a – b %");
});

test("HPACK: a frozen list of frozen fields (every answer's headers) is encoded once, any other list anew", () => {
  const frozen = Object.freeze([Object.freeze(["grpc-status", "0"]) as [string, string]]);
  const block = encodeHeaders(frozen);
  expect(encodeHeaders(frozen)).toBe(block);
  expect(new HpackDecoder().decode(block)).toEqual([["grpc-status", "0"]]);
  // A field that may still change, or a list that may: its block is its own each time.
  const field: [string, string] = ["grpc-status", "0"];
  const outerOnly = Object.freeze([field]);
  expect(encodeHeaders(outerOnly)).not.toBe(encodeHeaders(outerOnly));
  field[1] = "13";
  expect(new HpackDecoder().decode(encodeHeaders(outerOnly))).toEqual([["grpc-status", "13"]]);
  const open: [string, string][] = [["grpc-status", "0"]];
  expect(encodeHeaders(open)).not.toBe(encodeHeaders(open));
});
