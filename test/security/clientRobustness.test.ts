/**
 * The client against a drifting server (a loopback stub), with fast-check: extra fields at every
 * level of every response (poison keys included) are stripped and never crash the client; any
 * node of the wrong type gives a ResponseValidationError whose message names the field's path.
 */
import fc from "fast-check";
import { VmApiClient } from "../../src/client/client";
import { ResponseValidationError } from "../../src/client/core/errors";
import { expectPrototypeClean } from "./support/bodies";
import { CALLS, type Call } from "./support/fixtures";
import { startLoopback, type Loopback } from "./support/loopback";

const RUNS = { seed: 20260115, numRuns: 60 } as const;
let stub: Loopback;
beforeAll(async () => {
  stub = await startLoopback();
});
afterAll(() => stub.close());

const client = () =>
  new VmApiClient({
    apiKey: "robustness-key",
    baseUrl: stub.url,
    env: {},
    maxRetries: 0,
    sleep: async () => {},
  });

/** Answers `body` on the call's route; the create's namesake lookup gets an empty list. */
function serve(call: Call, body: unknown): void {
  stub.answer = (seen) => {
    const route = `${seen.method} ${seen.path}`;
    if (route === call.route) return { status: 200, body };
    if (route === "GET /machines/getMachines") return { status: 200, body: [] };
    return {
      status: 404,
      body: { error: { status: 404, message: `no stub for ${route}`, code: "route_not_found" } },
    };
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const clone = (v: unknown) => JSON.parse(JSON.stringify(v)) as Json;

/** Adds `extras[i]` (keys the object lacks) to the i-th object of a pre-order walk. */
function decorate(value: Json, extras: Record<string, Json>[], counter = { n: 0 }): Json {
  if (Array.isArray(value)) return value.map((v) => decorate(v, extras, counter));
  if (value === null || typeof value !== "object") return value;
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(value)) out[k] = decorate(v, extras, counter);
  const extra = extras[counter.n++ % extras.length];
  for (const [k, v] of Object.entries(extra)) {
    if (!(k in value))
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Every path below the root, e.g. ["events", 0, "handle"]. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [];
  const entries: [string | number, Json][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

function setAt(root: Json, path: (string | number)[], replacement: Json): Json {
  const copy = clone(root);
  let node = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  node[path[path.length - 1]] = replacement;
  return copy;
}

/** A value of another JSON type than `original` (never one the contract could accept there). */
function wrongType(original: Json): fc.Arbitrary<Json> {
  const obj = fc.constant<Json>({ unexpected: true });
  const list = (items: Json[]) => fc.constant<Json>(items);
  if (original === null) return fc.oneof(fc.boolean(), obj, list([1]));
  if (Array.isArray(original)) return fc.oneof(fc.string(), fc.integer(), obj);
  switch (typeof original) {
    case "string":
      return fc.oneof(fc.integer(), fc.boolean(), obj, list([]));
    case "number":
      return fc.oneof(fc.string(), fc.boolean(), obj, list([]));
    case "boolean":
      return fc.oneof(fc.string(), fc.integer(), obj, list([]));
    default:
      return fc.oneof(fc.string(), fc.integer(), list([]));
  }
}

const extraKey = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "then", "valueOf", "toJSON"),
);
const extrasPool = fc.array(
  fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, { maxKeys: 4 }),
  {
    minLength: 1,
    maxLength: 6,
  },
);

describe("unknown fields", () => {
  it.each(CALLS.map((c) => [c.name, c]))(
    "%s: extra fields at every level (poison keys too) → parsed as the contract, extras stripped",
    async (_n, call) => {
      await fc.assert(
        fc.asyncProperty(extrasPool, async (extras) => {
          serve(call, decorate(clone(call.body), extras));
          const result = await call.run(client());
          expect(result).toStrictEqual(call.parsed ?? call.body);
          expectPrototypeClean();
        }),
        RUNS,
      );
    },
  );
});

describe("wrong shapes", () => {
  const where = (path: (string | number)[]) => path.map(String).join(".");
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  it.each(CALLS.map((c) => [c.name, c]))(
    "%s: any node of the wrong type → ResponseValidationError naming its path",
    async (_n, call) => {
      const body = clone(call.body);
      const drift = fc
        .constantFrom(...paths(body))
        .chain((path) =>
          fc.tuple(
            fc.constant(path),
            wrongType(path.reduce<Json>((v, k) => (v as Record<string, Json>)[k], body)),
          ),
        );
      await fc.assert(
        fc.asyncProperty(drift, async ([path, replacement]) => {
          serve(call, setAt(body, path, replacement));
          const error = await call.run(client()).then(
            () => new Error("resolved"),
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(ResponseValidationError);
          const { message, status, code } = error as ResponseValidationError;
          expect({ status, code }).toEqual({ status: 200, code: "response_validation_failed" });
          expect(message).toMatch(new RegExp(`[:;] ${escape(where(path))}[ :]`));
        }),
        RUNS,
      );
    },
  );

  it.each(CALLS.map((c) => [c.name, c]))(
    "%s: a body of the wrong kind (string, number, null, HTML) → ResponseValidationError",
    async (_n, call) => {
      for (const raw of ['"text"', "42", "null", "true", "<html>busy</html>", "{}", "[]", "[[]]"]) {
        if (raw === "[]" && Array.isArray(call.body)) continue;
        stub.answer = (seen) =>
          `${seen.method} ${seen.path}` === call.route ? { status: 200, raw } : { status: 200, raw: "[]" };
        await expect(call.run(client())).rejects.toBeInstanceOf(ResponseValidationError);
      }
    },
  );
});
