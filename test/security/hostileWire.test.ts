/**
 * Bodies broken below the JSON level, generated with fast-check on every POST endpoint: text that
 * is not JSON, a body under a non-JSON Content-Type, invalid UTF-8 bytes, and bodies over the
 * 1 MiB limit. Each gets its documented 4xx with the nested error body and changes nothing.
 */
import fc from "fast-check";
import { SCHEMA_BODY_CASES, type BodyCase } from "./support/bodies";
import { expectClientError, send } from "./support/http";
import { ALL_BODY_CASES, useHostileWorld } from "./support/hostileWorld";

const RUNS = { seed: 20260115, numRuns: 40 } as const;
const each = ALL_BODY_CASES.map((c) => [c.name, c] as const);

const hostile = useHostileWorld();

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** JSON text broken by truncation, an inserted character, or replaced outright. */
const notJson = fc
  .oneof(
    fc.tuple(fc.json(), fc.nat()).map(([t, n]) => t.slice(0, n % (t.length + 1))),
    fc
      .tuple(fc.json(), fc.nat(), fc.string({ unit: "binary", minLength: 1, maxLength: 3 }))
      .map(([t, n, s]) => t.slice(0, n % (t.length + 1)) + s + t.slice(n % (t.length + 1))),
    fc.string({ unit: "binary", minLength: 1, maxLength: 60 }),
    fc.constantFrom("\ufeff{}", "{'a':1}", "{a:1}", "[1,]", "NaN", "undefined", "{}{}", '{"a":1}x', "0x10"),
  )
  .filter((t) => t.trim() !== "" && !parses(t));

/** What docs/emulator.md accepts: application/json, or an application/*+json type, with parameters. */
const isJsonType = (t: string) => /^application\/([\w.+-]+\+)?json$/i.test(t.split(";")[0].trim());
const notJsonType = fc
  .oneof(
    fc.constantFrom(
      "text/plain",
      "text/json",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonp",
      "application/json5",
      "application/javascript",
      "application/xml",
      "*/*",
      "application/*",
      "json",
      "application/json-seq",
      "text/plain; type=application/json",
      "application/ json",
    ),
    fc.string({ unit: "grapheme-ascii", maxLength: 40 }),
  )
  .filter((t) => !isJsonType(t));

/** Byte sequences that are never valid UTF-8 (stray continuation, overlong, surrogate, > U+10FFFF, cut). */
const badUtf8 = fc.oneof(
  fc.constantFrom(
    [0x80],
    [0xbf],
    [0xc0, 0xaf],
    [0xc1, 0xbf],
    [0xe0, 0x80, 0x80],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xf5],
    [0xff],
    [0xfe, 0xff],
    [0xe2, 0x82],
    [0xf0, 0x9f],
  ),
  fc.uint8Array({ minLength: 1, maxLength: 6 }).map((a) => [...a]),
);
const isUtf8 = (b: Buffer) => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

describe("not JSON", () => {
  it.each(each)(
    "%s: text that does not parse as JSON → 400 malformed_json, nothing changed",
    async (_n, c) => {
      await fc.assert(
        fc.asyncProperty(notJson, async (text) => {
          const answer = await hostile.post(c, text, { "Content-Type": "application/json" });
          await hostile.expectRefusedUnchanged(answer, 400, "malformed_json");
        }),
        RUNS,
      );
    },
  );

  it("malformed_json: the message never quotes the body (it may hold a password or a script)", async () => {
    const c = SCHEMA_BODY_CASES.find((x) => x.name === "createMachine")!;
    for (const text of ["hunter2-secret", '{"password": hunter2-secret}', '[1, 2, "a", hunter2-secret]']) {
      const answer = await hostile.post(c, text, { "Content-Type": "application/json" });
      expect(expectClientError(answer, 400, "malformed_json").message).not.toContain("hunter2");
    }
  });
});

/** createScript also takes uploads: a JSON body declared multipart is a broken upload there (400). */
const isUploadType = (c: BodyCase, t: string) =>
  c.name === "createScript" && /^multipart\/form-data$/i.test(t.split(";")[0].trim());

describe("content types", () => {
  it.each(each)(
    "%s: a valid JSON body under a non-JSON Content-Type → 415 (a broken upload, 400, where uploads are taken), nothing changed",
    async (_n, c) => {
      await fc.assert(
        fc.asyncProperty(notJsonType, async (type) => {
          const answer = await hostile.post(c, JSON.stringify(c.valid(hostile.world)), {
            "Content-Type": type,
          });
          if (isUploadType(c, type)) await hostile.expectRefusedUnchanged(answer, 400, "validation_failed");
          else await hostile.expectRefusedUnchanged(answer, 415, "unsupported_media_type");
        }),
        RUNS,
      );
    },
  );

  it.each(each)("%s: a body without any Content-Type → 415, nothing changed", async (_n, c) => {
    await hostile.expectRefusedUnchanged(
      await hostile.post(c, JSON.stringify(c.valid(hostile.world)), {}),
      415,
      "unsupported_media_type",
    );
  });
});

describe("invalid UTF-8", () => {
  it.each(each)(
    "%s: invalid UTF-8 bytes anywhere in the body → 400 malformed_json, nothing changed",
    async (_n, c) => {
      const body = fc
        .tuple(fc.nat(), badUtf8)
        .map(([at, bytes]) => {
          const text = Buffer.from(JSON.stringify({ ...c.valid(hostile.world), note: "é-ok" }));
          const cut = at % (text.length + 1);
          return Buffer.concat([text.subarray(0, cut), Buffer.from(bytes), text.subarray(cut)]);
        })
        .filter((b) => !isUtf8(b));
      await fc.assert(
        fc.asyncProperty(body, async (bytes) => {
          const answer = await hostile.post(c, bytes, { "Content-Type": "application/json; charset=utf-8" });
          await hostile.expectRefusedUnchanged(answer, 400, "malformed_json");
        }),
        RUNS,
      );
    },
  );
});

describe("size limit", () => {
  const overLimit = (c: BodyCase) =>
    JSON.stringify({ ...c.valid(hostile.world), pad: "x".repeat(1024 * 1024) }).slice(0, 1024 * 1024 + 1);

  it.each(each)("%s: 1 MiB + 1 byte, declared → 413 payload_too_large, nothing changed", async (_n, c) => {
    const body = overLimit(c);
    const answer = await hostile.post(c, body, {
      "Content-Type": "application/json",
      "Content-Length": body.length,
    });
    await hostile.expectRefusedUnchanged(answer, 413, "payload_too_large");
  });

  it.each(each)("%s: 2 MiB chunked (no length) → 413, nothing changed", async (_n, c) => {
    const body = Buffer.alloc(2 * 1024 * 1024, "x");
    const answer = await hostile.post(c, body, {
      "Content-Type": "application/json",
      "Transfer-Encoding": "chunked",
    });
    await hostile.expectRefusedUnchanged(answer, 413, "payload_too_large");
  });

  it("any endpoint: Content-Length of 64 MiB → 413 at once, without reading it", async () => {
    const c = SCHEMA_BODY_CASES[0];
    const answer = await send(hostile.world.url, {
      method: "POST",
      path: c.path(hostile.world),
      key: c.key(hostile.world),
      headers: { "Content-Type": "application/json", "Content-Length": 64 * 1024 * 1024 },
      body: undefined,
      timeoutMs: 3_000,
    }).catch((error: Error) => error);
    // Either the 413 arrives, or the socket is closed first; never a hang and never a change.
    const outcome =
      answer instanceof Error
        ? /no answer within/.test(answer.message)
          ? `a hang (${answer.message})`
          : "closed"
        : `${answer.status} ${(answer.body as { error?: { code?: string } } | null)?.error?.code}`;
    expect(["413 payload_too_large", "closed"]).toContain(outcome);
    await hostile.expectUnchanged();
  });

  it("GET with a body over the limit → 413; the server keeps answering", async () => {
    const answer = await send(hostile.world.url, {
      path: "/users/getUsers",
      key: hostile.world.keys.individual,
      headers: { "Content-Type": "text/plain" },
      body: Buffer.alloc(1024 * 1024 + 1, "x"),
    });
    expectClientError(answer, 413, "payload_too_large");
    expect(
      (await send(hostile.world.url, { path: "/users/getUsers", key: hostile.world.keys.individual })).status,
    ).toBe(200);
  });
});
