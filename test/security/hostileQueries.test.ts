/**
 * Hostile query strings and path segments on every endpoint, generated with fast-check: repeated
 * parameters, array and prototype-pollution keys, control characters, broken percent-encoding and
 * long values. Answers are 2xx or a 4xx with the nested body, never a 5xx or a hang; reads and
 * refusals change nothing; unknown list filters are named in the 400.
 */
import fc from "fast-check";
import {
  MACHINE_FILTER_FIELDS,
  NETWORK_FILTER_FIELDS,
  SCRIPT_FILTER_FIELDS,
  TEMPLATE_FILTER_FIELDS,
  USER_FILTER_FIELDS,
} from "../../src/contract/listFilters";
import {
  expectPrototypeClean,
  hostileString,
  IGNORED_BODY_CASES,
  POISON_KEYS,
  SCHEMA_BODY_CASES,
} from "./support/bodies";
import { ENDPOINTS } from "./support/endpoints";
import { expectClientError, send, type RawAnswer } from "./support/http";
import { useHostileWorld } from "./support/hostileWorld";
import type { World } from "./support/world";
import { SEEDED } from "../kit/seeded";

const RUNS = { seed: 20260115, numRuns: 80 } as const;

const hostile = useHostileWorld();

/** Allowed parameters of the list endpoints (anything else is a 400 naming it). */
const LIST_PARAMS: Record<string, readonly string[]> = {
  getMachines: [...MACHINE_FILTER_FIELDS, "limit", "skip"],
  getScripts: SCRIPT_FILTER_FIELDS,
  getUsers: USER_FILTER_FIELDS,
  getNetworks: NETWORK_FILTER_FIELDS,
  getTemplates: TEMPLATE_FILTER_FIELDS,
};

/** Raw fragments a query parser has to survive, inserted as they are (not encoded). */
const RAW_FRAGMENTS = [
  "%",
  "%ZZ",
  "%E0%A4%A",
  "%00",
  "%FF%FE",
  "%C0%AF",
  "+",
  "&&",
  "==",
  ";",
  "%26",
  "%3D",
  "#x",
  "?",
];

/** One `key=value` piece: known, poison, array-ish or random keys; hostile values; or raw garbage. */
function piece(known: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.constantFrom(...known, ...POISON_KEYS),
    fc.constantFrom(...known).map((k) => `${k}[]`),
    fc.constantFrom("__proto__[polluted]", "constructor[prototype][polluted]", "a[__proto__][b]"),
    fc.string({ unit: "binary", maxLength: 12 }),
  );
  const value = fc.oneof(
    hostileString.map((s) => s.slice(0, 1_500)),
    fc.constantFrom("null", "true", "-1", "1e400", ""),
  );
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(key, value).map(([k, v]) => `${pct(k)}=${pct(v)}`),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_FRAGMENTS) },
  );
}

/** Percent-encodes the UTF-8 bytes of `s` (lone surrogates included, as EF BF BD). */
const pct = (s: string) =>
  [...Buffer.from(s, "utf8")]
    .map((b) =>
      /[\w.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0")}`,
    )
    .join("");

const query = (known: readonly string[]) =>
  fc.array(piece(known), { minLength: 1, maxLength: 8 }).map((parts) => parts.join("&"));

const paramsOf = (path: string) => [...new URLSearchParams(path.split("?")[1] ?? "").keys()];

async function expectSafe(answer: RawAnswer, mayChange = false): Promise<void> {
  expect({ status: answer.status, text: answer.text.slice(0, 200) }).toMatchObject({
    status: expect.any(Number) as number,
  });
  expect(answer.status).toBeLessThan(500);
  if (answer.status >= 300) expectClientError(answer);
  if (!mayChange) await hostile.expectUnchanged();
  expectPrototypeClean();
}

describe("query strings on GET endpoints", () => {
  const gets = ENDPOINTS.filter((e) => e.method === "GET");
  it.each(gets.map((e) => [e.name, e]))(
    "%s: hostile parameters added to a valid query → 200 or 4xx nested, nothing changed",
    async (_n, e) => {
      const base = e.request(hostile.world.individual, "q").path;
      const known = LIST_PARAMS[e.name] ?? paramsOf(base);
      await fc.assert(
        fc.asyncProperty(query(known), fc.boolean(), async (q, first) => {
          const [path, existing] = base.split("?");
          const full = `${path}?${first ? [q, existing] : [existing, q]}`.replace(/\?&|&$/g, (m) => m[0]);
          const answer = await send(hostile.world.url, { path: full, key: hostile.world.keys.individual });
          await expectSafe(answer);
          const allowed = LIST_PARAMS[e.name];
          if (allowed === undefined) return;
          const unknown = [...new URL(full, hostile.world.url).searchParams.keys()].find(
            (k) => !allowed.includes(k),
          );
          // Refused as unknown exactly when the query has a parameter the endpoint does not take.
          const refusedAsUnknown = answer.status === 400 && answer.text.includes("unknown query parameter");
          expect({ unknown, refusedAsUnknown }).toEqual({ unknown, refusedAsUnknown: unknown !== undefined });
        }),
        RUNS,
      );
    },
  );

  it("getMachinePublic: machineId repeated → the first one is used, never a mix", async () => {
    const { machine, offMachine } = hostile.world.individual;
    const path = `/machines/getMachinePublic?machineId=${machine}&machineId=${offMachine}`;
    const answer = await send(hostile.world.url, { path, key: hostile.world.keys.individual });
    expect((answer.body as { id: string }).id).toBe(machine);
  });

  it("getMachines: limit and skip as arrays, garbage or huge → 400 naming them", async () => {
    for (const q of [
      "limit[]=1",
      "limit=1e400",
      "limit=x&limit=5",
      "skip=-1",
      "skip=1e400",
      "limit=",
      "limit=1.5",
    ]) {
      const answer = await send(hostile.world.url, {
        path: `/machines/getMachines?${q}`,
        key: hostile.world.keys.individual,
      });
      expect(expectClientError(answer, 400, "validation_failed").message).toMatch(/limit|skip/);
    }
  });

  it("getMachines: an integer not written in digits (empty, blank, hex, signed, words) → 400 naming the field and what came", async () => {
    for (const [q, got] of [
      ["skip=", '""'],
      ["skip=%20", '" "'],
      ["skip=0x10", '"0x10"'],
      ["skip=%2B3", '"+3"'],
      ["skip=abc", '"abc"'],
      ["limit=%200", '" 0"'],
    ]) {
      const answer = await send(hostile.world.url, {
        path: `/machines/getMachines?${q}`,
        key: hostile.world.keys.individual,
      });
      const field = q.split("=")[0];
      expect(expectClientError(answer, 400, "validation_failed").message).toContain(
        `${field} must be a whole number written in digits (got ${got})`,
      );
    }
    const digits = await send(hostile.world.url, {
      path: "/machines/getMachines?skip=0&limit=5",
      key: hostile.world.keys.individual,
    });
    expect(digits.status).toBe(200);
  });
});

describe("query strings on POST endpoints", () => {
  /** Each POST aimed where it changes nothing: an invalid body, or a no-op target. */
  const refused = [
    ...SCHEMA_BODY_CASES.map((c) => ({
      c,
      body: (w: World) => ({ ...c.valid(w), [c.fields[0]]: [] }),
      status: 400,
    })),
    ...IGNORED_BODY_CASES.map((c) => ({ c, body: () => undefined, status: c.ignoredStatus as number })),
  ];

  it.each(refused.map((r) => [r.c.name, r.status, r]))(
    "%s: hostile parameters on a request that changes nothing → still %s, nothing changed",
    async (_n, status, { c, body }) => {
      await fc.assert(
        fc.asyncProperty(query(["releasePublicIp", "machineId", "apiKey"]), async (q) => {
          const json = body(hostile.world);
          const answer = await send(hostile.world.url, {
            method: "POST",
            path: `${c.path(hostile.world)}?${q}`,
            key: c.key(hostile.world),
            json,
          });
          expect(answer.status).toBe(status);
          await expectSafe(answer);
        }),
        { ...RUNS, numRuns: 40 },
      );
    },
  );

  it("destroyMachine: releasePublicIp (first occurrence) not true/false/1/0 → 400, machine kept", async () => {
    const bad = fc
      .tuple(
        hostileString.map((s) => s.slice(0, 200)),
        query(["releasePublicIp"]),
      )
      .filter(([v]) => !/^(true|1|false|0)$/i.test(v));
    await fc.assert(
      fc.asyncProperty(bad, async ([value, rest]) => {
        const path = `/machines/${hostile.world.individual.machine}/destroyMachine?releasePublicIp=${pct(value)}&${rest}`;
        const answer = await send(hostile.world.url, {
          method: "POST",
          path,
          key: hostile.world.keys.individual,
        });
        expect(expectClientError(answer, 400, "validation_failed").message).toContain("releasePublicIp");
        await expectSafe(answer);
      }),
      RUNS,
    );
  });
});

describe("path segments", () => {
  const verbs = ["start", "stop", "restart", "destroyMachine", "updateMachinePublic", "setMachineAccess"];
  const segment = fc.oneof(
    fc.string({ unit: "binary", minLength: 1, maxLength: 40 }).map((s) => pct(s)),
    fc.constantFrom(
      ...RAW_FRAGMENTS.filter((f) => !f.includes("?") && !f.includes("#")),
      "%2F",
      "%2e%2e",
      "..",
      ".",
    ),
    fc.integer({ min: 200, max: 6_000 }).map((n) => "p".repeat(n)),
  );

  it.each(verbs)(
    "POST /machines/{hostile id}/%s → 4xx nested (never a 5xx), nothing changed",
    async (verb) => {
      await fc.assert(
        fc.asyncProperty(segment, async (id) => {
          const answer = await send(hostile.world.url, {
            method: "POST",
            path: `/machines/${id}/${verb}`,
            key: hostile.world.keys.individual,
            json: { userId: SEEDED.member, enableAccess: true },
          });
          expectClientError(answer);
          await expectSafe(answer);
        }),
        { ...RUNS, numRuns: 40 },
      );
    },
  );
});
