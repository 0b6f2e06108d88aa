/**
 * Extreme shapes on every POST endpoint: 10,000 (and 200,000) levels of nesting, huge arrays,
 * huge strings in every field, and prototype-pollution keys. The parser and the schemas must
 * refuse them with a 4xx (or ignore them where the route has no body) without a 5xx, a hang, a
 * state change or a polluted Object.prototype. Unicode names, on the other hand, round-trip.
 */
import fc from "fast-check";
import { expectPrototypeClean, SCHEMA_BODY_CASES, type BodyCase } from "./support/bodies";
import { expectClientError, send } from "./support/http";
import { ALL_BODY_CASES, useHostileWorld } from "./support/hostileWorld";
import { TEAM, USERS, createBody } from "./support/world";

const hostile = useHostileWorld();

const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const deepObject = (depth: number) => '{"x":'.repeat(depth) + "1" + "}".repeat(depth);
/** `valid` with `field` replaced by raw JSON text (too deep for JSON.stringify to build). */
const withRaw = (body: object, field: string, raw: string) =>
  JSON.stringify({ ...body, [field]: "@@RAW@@" }).replace('"@@RAW@@"', raw);

/** Sends `text`; a schema refusal must be a 4xx that changed nothing, an ignored body its fixed status. */
async function expectHandled(c: BodyCase, text: string): Promise<void> {
  const answer = await hostile.post(c, text);
  if (c.ignoredStatus !== undefined) expect(answer.status).toBe(c.ignoredStatus);
  else expectClientError(answer, c.refusal(JSON.parse(text)));
  await hostile.expectUnchanged();
  expectPrototypeClean();
}

describe("deep nesting", () => {
  it.each(ALL_BODY_CASES.map((c) => [c.name, c]))(
    "%s: 10,000 and 200,000 nested arrays (and 10,000 objects) at the root → 4xx or ignored",
    async (_n, c) => {
      await expectHandled(c, deepArray(10_000));
      await expectHandled(c, deepArray(200_000));
      const objects = deepObject(10_000);
      // Unknown keys are ignored, so this is a valid (empty) body where every field is optional.
      if (c.ignoredStatus !== undefined || c.refusal(JSON.parse(objects)) !== undefined) {
        await expectHandled(c, objects);
      }
    },
  );

  const fieldCases = SCHEMA_BODY_CASES.flatMap((c) => c.fields.map((f) => [c.name, f, c] as const));
  it.each(fieldCases)("%s: %s nested 10,000 levels deep → 400", async (_n, field, c) => {
    await expectHandled(c, withRaw(c.valid(hostile.world), field, deepArray(10_000)));
    const asObject = withRaw(c.valid(hostile.world), field, deepObject(10_000));
    if (c.refusal(JSON.parse(asObject)) !== undefined) await expectHandled(c, asObject);
  });
});

describe("huge arrays and strings", () => {
  it.each(ALL_BODY_CASES.map((c) => [c.name, c]))(
    "%s: a root array of 200,000 numbers → 4xx or ignored",
    async (_n, c) => {
      await expectHandled(c, `[${new Array(200_000).fill(0).join(",")}]`);
    },
  );

  const fieldCases = SCHEMA_BODY_CASES.flatMap((c) => c.fields.map((f) => [c.name, f, c] as const));
  it.each(fieldCases)(
    "%s: %s as 50,000-element array, then as a 900 KB string → 4xx",
    async (_n, field, c) => {
      await expectHandled(
        c,
        JSON.stringify({ ...c.valid(hostile.world), [field]: new Array(50_000).fill("ps1") }),
      );
      const huge = JSON.stringify({ ...c.valid(hostile.world), [field]: "é".repeat(450_000) });
      await expectHandled(c, huge);
    },
  );

  it("createDelegation: 1,001 machine ids → 400 naming machine.ids", async () => {
    const c = SCHEMA_BODY_CASES.find((x) => x.name === "createDelegation")!;
    const ids = Array.from({ length: 1001 }, (_, i) => `ps${i}`);
    await expectHandled(c, JSON.stringify({ machine: { ids } }));
  });
});

describe("prototype pollution", () => {
  const required = SCHEMA_BODY_CASES.filter((c) => c.refusal({}) !== undefined);
  it.each(required.map((c) => [c.name, c]))(
    "%s: every required field only under __proto__ → 400 (nothing is inherited)",
    async (_n, c) => {
      await expectHandled(c, `{"__proto__":${JSON.stringify(c.valid(hostile.world))}}`);
    },
  );

  it.each(SCHEMA_BODY_CASES.map((c) => [c.name, c]))(
    "%s: __proto__, constructor.prototype and prototype keys beside a bad field → 400, prototype clean",
    async (_n, c) => {
      const poison = '{"polluted":true,"role":"admin","isAdmin":true,"teamId":"teacme001"}';
      const bad = withRaw(c.valid(hostile.world), c.fields[0], "[]");
      const text = bad.replace(
        /^\{/,
        `{"__proto__":${poison},"constructor":{"prototype":${poison}},"prototype":${poison},`,
      );
      await expectHandled(c, text);
    },
  );

  it("createMachine: a team member sending role admin under __proto__ and at the top → still 403", async () => {
    const c = SCHEMA_BODY_CASES.find((x) => x.name === "createMachine")!;
    const body = createBody({ teamId: TEAM, userId: USERS.member, role: "admin", isAdmin: true });
    const text = JSON.stringify(body).replace(/^\{/, '{"__proto__":{"role":"admin","apiKey":null},');
    const answer = await send(hostile.world.url, {
      method: "POST",
      path: c.path(hostile.world),
      key: hostile.world.keys.teamMember,
      headers: { "Content-Type": "application/json" },
      body: text,
    });
    expectClientError(answer, 403, "forbidden");
    await hostile.expectUnchanged();
    expectPrototypeClean();
  });
});

describe("unicode names", () => {
  it("createScript: any printable unicode name → 200 and shown back exactly (trimmed)", async () => {
    let n = 0;
    const name = fc.string({ unit: "grapheme", minLength: 1, maxLength: 24 }).filter((s) => s.trim() !== "");
    await fc.assert(
      fc.asyncProperty(name, async (raw) => {
        const scriptName = `${raw}#${(n += 1)}`;
        const created = await send(hostile.world.url, {
          method: "POST",
          path: "/scripts/createScript",
          key: hostile.world.keys.individual,
          json: { scriptName, scriptText: "echo" },
        });
        expect({ status: created.status, text: created.text }).toMatchObject({ status: 200 });
        const id = (created.body as { id: string }).id;
        const shown = await send(hostile.world.url, {
          path: `/scripts/getScript?scriptId=${id}`,
          key: hostile.world.keys.individual,
        });
        expect((shown.body as { name: string }).name).toBe(scriptName.trim());
      }),
      { seed: 20260115, numRuns: 60 },
    );
    await hostile.rebase();
  });
});
