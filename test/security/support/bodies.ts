/**
 * The POST endpoints for hostile-body tests, each with the oracle that says whether a parsed
 * body is acceptable (the shared request schemas of src/contract/requestSchemas.ts, applied the
 * way the emulator applies them), and generators of hostile JSON values.
 */
import fc from "fast-check";
import type { z } from "zod";
import { SCRIPT_MAX_BYTES } from "../../../src/contract/constants";
import {
  CreateDelegationRequestSchema,
  CreateMachineRequestSchema,
  CreateScriptRequestSchema,
  DestroyMachineRequestSchema,
  SetMachineAccessRequestSchema,
  UpdateMachineRequestSchema,
} from "../../../src/contract/requestSchemas";
import { createBody, USERS, type World } from "./world";

/** A POST endpoint under hostile bodies. */
export interface BodyCase {
  name: string;
  key(w: World): string;
  path(w: World): string;
  /** The status a body gets; undefined when the shared schema accepts it (or the body is ignored). */
  refusal(body: unknown): 400 | 413 | undefined;
  /** Known fields (poisoned one by one); empty when the route ignores its body. */
  fields: readonly string[];
  /** A body the schema accepts. */
  valid(w: World): Record<string, unknown>;
  /** For routes that ignore the body: the status every well-formed JSON body gets. */
  ignoredStatus?: number;
}

/** The schema decides; `body ?? {}` is how the emulator treats JSON null (as no body). */
function by(schema: z.ZodType, orEmpty = true) {
  return (body: unknown): 400 | undefined =>
    schema.safeParse(orEmpty ? (body ?? {}) : body).success ? undefined : 400;
}

const keysOf = (schema: { shape: Record<string, unknown> }) => Object.keys(schema.shape);

/** The schema-validated POST endpoints. */
export const SCHEMA_BODY_CASES: readonly BodyCase[] = [
  {
    name: "createMachine",
    key: (w) => w.keys.individual,
    path: () => "/machines/createSingleMachinePublic",
    refusal: by(CreateMachineRequestSchema, false),
    fields: keysOf(CreateMachineRequestSchema as unknown as { shape: Record<string, unknown> }),
    valid: () => createBody(),
  },
  {
    name: "updateMachine",
    key: (w) => w.keys.individual,
    path: (w) => `/machines/${w.individual.machine}/updateMachinePublic`,
    refusal: by(UpdateMachineRequestSchema),
    fields: keysOf(UpdateMachineRequestSchema),
    valid: () => ({ machineName: "renamed", shutdownTimeoutInHours: 2 }),
  },
  {
    name: "destroyMachine",
    key: (w) => w.keys.individual,
    path: (w) => `/machines/${w.individual.machine}/destroyMachine`,
    refusal: by(DestroyMachineRequestSchema),
    fields: keysOf(DestroyMachineRequestSchema),
    valid: () => ({ releasePublicIp: true }),
  },
  {
    name: "setMachineAccess",
    key: (w) => w.keys.teamAdmin,
    path: (w) => `/machines/${w.team.machine}/setMachineAccess`,
    refusal: by(SetMachineAccessRequestSchema),
    fields: keysOf(SetMachineAccessRequestSchema),
    valid: () => ({ userId: USERS.member, enableAccess: true }),
  },
  {
    name: "createScript",
    key: (w) => w.keys.individual,
    path: () => "/scripts/createScript",
    refusal: (body) => {
      const text = (body as { scriptText?: unknown } | null)?.scriptText;
      if (typeof text === "string" && Buffer.byteLength(text) > SCRIPT_MAX_BYTES) return 413;
      return by(CreateScriptRequestSchema)(body);
    },
    fields: keysOf(CreateScriptRequestSchema),
    valid: () => ({ scriptName: "fresh", scriptText: "echo" }),
  },
  {
    name: "createDelegation",
    key: (w) => w.keys.individual,
    path: () => "/resourceDelegations/create",
    refusal: by(CreateDelegationRequestSchema),
    fields: keysOf(CreateDelegationRequestSchema),
    valid: (w) => ({ machine: { ids: [w.individual.machine] } }),
  },
];

/** POST endpoints that ignore the body, aimed where they change nothing (no-op or refusal). */
export const IGNORED_BODY_CASES: readonly BodyCase[] = [
  ["start a ready machine", (w: World) => `/machines/${w.individual.machine}/start`, 204],
  ["stop an off machine", (w: World) => `/machines/${w.individual.offMachine}/stop`, 204],
  ["restart an off machine", (w: World) => `/machines/${w.individual.offMachine}/restart`, 409],
  ["destroy an unknown script", () => "/scripts/scnothere/destroy", 404],
].map(([name, path, status]) => ({
  name: name as string,
  key: (w: World) => w.keys.individual,
  path: path as (w: World) => string,
  refusal: () => undefined,
  fields: [],
  valid: () => ({}),
  ignoredStatus: status as number,
}));

/** Keys that have hurt JavaScript servers before. */
export const POISON_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty"];

/** Strings no field expects: control characters, bidi overrides, huge, look-alikes of other types. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "binary-ascii", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u202e",
    "\ud800",
    "😀",
    "%00",
    "../..",
    "<x>",
    "null",
    "true",
    "1e309",
  ),
  fc.integer({ min: 256, max: 40_000 }).map((n) => "x".repeat(n)),
);

/** Leaves of every JSON type, plus the values JSON turns into null (NaN, Infinity). */
export const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(-0, 2 ** 53 + 1, -1, 1e308),
);

/** A value of any shape for a field: a leaf, an array or an object with poison keys. */
export function hostileValue(fieldNames: readonly string[]): fc.Arbitrary<unknown> {
  const key = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...POISON_KEYS, ...fieldNames));
  return fc.anything({ key, values: [hostileLeaf], maxDepth: 3, maxKeys: 5, withNullPrototype: true });
}

/** Object.prototype as it should stay: no key added by any request. */
export function expectPrototypeClean(): void {
  const probe = {} as Record<string, unknown>;
  expect(Object.keys(Object.prototype)).toEqual([]);
  for (const name of ["polluted", "role", "isAdmin", "region", "teamId"]) expect(probe[name]).toBeUndefined();
}
