/**
 * Hostile JSON bodies, generated with fast-check against the in-process emulator (manual clock):
 * any JSON value at the root, valid bodies with fields of the wrong type, huge or full of control
 * characters, and poison keys. Every body the shared schema refuses gets a 4xx with the nested
 * error body and changes nothing; nothing ever gets a 5xx; Object.prototype stays clean.
 * Runs are bounded and seeded, so a failure replays.
 */
import fc from "fast-check";
import {
  expectPrototypeClean,
  hostileValue,
  IGNORED_BODY_CASES,
  SCHEMA_BODY_CASES,
  type BodyCase,
} from "./support/bodies";
import { expectClientError, type NestedError } from "./support/http";
import { useHostileWorld } from "./support/hostileWorld";
import type { World } from "./support/world";

/** Fixed seed and bounded runs: the whole folder stays well under a minute, failures replay. */
const RUNS = { seed: 20260115, numRuns: 120 } as const;

const hostile = useHostileWorld();

/** JSON text of a generated value; `undefined` (not JSON) is left out by the generators. */
const jsonText = (value: unknown) => JSON.stringify(value) as string;
const isJson = (value: unknown) => JSON.stringify(value) !== undefined;

/** Refused → the expected 4xx, nested body, state unchanged; never a 5xx. */
async function expectRefused(c: BodyCase, text: string): Promise<NestedError> {
  const status = c.refusal(JSON.parse(text));
  expect({ refusedBySchema: status !== undefined, text }).toEqual({ refusedBySchema: true, text });
  const error = await hostile.expectRefusedUnchanged(await hostile.post(c, text), status);
  expectPrototypeClean();
  return error;
}

describe("hostile bodies on schema-validated endpoints", () => {
  it.each(SCHEMA_BODY_CASES.map((c) => [c.name, c]))(
    "%s: any JSON value the schema refuses (fc.anything, poison keys) → 4xx nested, nothing changed",
    async (_n, c) => {
      const body = hostileValue(c.fields).filter(
        (v) => isJson(v) && c.refusal(JSON.parse(jsonText(v))) !== undefined,
      );
      await fc.assert(
        fc.asyncProperty(body, (value) => expectRefused(c, jsonText(value)).then(() => undefined)),
        RUNS,
      );
    },
  );

  it.each(SCHEMA_BODY_CASES.map((c) => [c.name, c]))(
    "%s: a valid body with 1–3 fields of a wrong type, huge or hostile → 4xx naming a field",
    async (_n, c) => {
      const poisoned = fc
        .uniqueArray(fc.constantFrom(...c.fields), { minLength: 1, maxLength: 3 })
        .chain((fields) =>
          fc.tuple(fc.constant(fields), fc.tuple(...fields.map(() => hostileValue(c.fields)))),
        )
        .map(([fields, values]) => {
          const body: Record<string, unknown> = { ...c.valid(hostile.world) };
          fields.forEach((f, i) => (body[f] = values[i]));
          return { fields, text: jsonText(body) };
        })
        .filter(({ text }) => c.refusal(JSON.parse(text)) !== undefined);
      await fc.assert(
        fc.asyncProperty(poisoned, async ({ fields, text }) => {
          const { status, message } = await expectRefused(c, text);
          // A 400 names a poisoned field; another refusal (a 404 for an id) need not.
          const named = fields.some((f) => message.includes(f));
          expect({ status, named, message }).not.toMatchObject({ status: 400, named: false });
        }),
        RUNS,
      );
    },
  );
});

describe("hostile bodies on endpoints that ignore the body", () => {
  it.each(IGNORED_BODY_CASES.map((c) => [c.name, c.ignoredStatus, c]))(
    "%s: any JSON value → %s, nothing changed",
    async (_n, status, c) => {
      const body = hostileValue([]).filter(isJson);
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const answer = await hostile.post(c, jsonText(value));
          expect(answer.status).toBe(status);
          if (answer.status >= 400) expectClientError(answer);
          await hostile.expectUnchanged();
        }),
        { ...RUNS, numRuns: 60 },
      );
    },
  );
});

describe("names", () => {
  type NameCase = [endpoint: string, field: string, path: (w: World) => string, body: (n: string) => object];
  const nameCases: NameCase[] = [
    [
      "createMachine",
      "machineName",
      () => "/machines/createSingleMachinePublic",
      (n) => ({ ...SCHEMA_BODY_CASES[0].valid(hostile.world), machineName: n }),
    ],
    [
      "updateMachine",
      "machineName",
      (w) => `/machines/${w.individual.machine}/updateMachinePublic`,
      (n) => ({ machineName: n }),
    ],
    [
      "createScript",
      "scriptName",
      () => "/scripts/createScript",
      (n) => ({ scriptName: n, scriptText: "echo" }),
    ],
  ];
  const unsafe = ["\u0000", "\n", "\r", "\t", "\u001b", "\u007f", "\u0085", "\u009b", "\ud800", "\udfff"];
  const withControl = fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...unsafe), fc.string({ maxLength: 8 }))
    .map(([a, c, b]) => `n${a}${c}${b}x`);

  it.each(nameCases)(
    "%s: %s with a control character or a lone surrogate → 400 naming the field",
    async (endpoint, field, path, body) => {
      const c: BodyCase = { ...SCHEMA_BODY_CASES.find((x) => x.name === endpoint)!, path };
      await fc.assert(
        fc.asyncProperty(withControl, async (n) => {
          expect((await expectRefused(c, JSON.stringify(body(n)))).message).toContain(field);
        }),
        { ...RUNS, numRuns: 40 },
      );
    },
  );
});
