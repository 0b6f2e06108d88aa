/**
 * Hostile multipart uploads to createScript, generated with fast-check against the in-process
 * emulator: random parts (names, file names, bytes, boundary look-alikes), bodies cut at any
 * byte, and random bytes under a multipart content type. Every refusal is a 4xx with the nested
 * error body and changes nothing; nothing gets a 5xx or kills the server. Seeded and bounded.
 */
import fc from "fast-check";
import { expectClientError, send, snapshot, withQuery, type RawAnswer } from "./support/http";
import { useHostileWorld } from "./support/hostileWorld";

const RUNS = { seed: 20260116, numRuns: 150 } as const;
const BOUNDARY = "fuzz-boundary";

const hostile = useHostileWorld();

interface FuzzPart {
  name: string;
  filename: string | null;
  data: Uint8Array;
}

const partArb: fc.Arbitrary<FuzzPart> = fc.record({
  name: fc.oneof(fc.constant("file"), fc.string({ maxLength: 12 })),
  filename: fc.option(fc.oneof(fc.constant("s.sh"), fc.string({ maxLength: 40 }))),
  data: fc.oneof(
    fc.uint8Array({ maxLength: 200 }),
    fc.string({ maxLength: 200 }).map((s) => new TextEncoder().encode(s)),
    fc.constant(new TextEncoder().encode(`\r\n--${BOUNDARY}\r\n`)),
  ),
});

/** A multipart body; names and file names are written raw, quotes and newlines included. */
function body(parts: FuzzPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename === null ? "" : `; filename="${p.filename}"`;
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\n\r\n`),
    );
    chunks.push(Buffer.from(p.data), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

function post(
  bytes: Buffer,
  query: readonly (readonly [string, string])[],
  type?: string,
): Promise<RawAnswer> {
  return send(hostile.world.url, {
    method: "POST",
    path: withQuery("/scripts/createScript", query),
    key: hostile.world.keys.individual,
    headers: { "Content-Type": type ?? `multipart/form-data; boundary=${BOUNDARY}` },
    body: bytes,
  });
}

/** 200 creates exactly one script; anything else is a nested 4xx and leaves the state as it was. */
async function expectCreatedOrRefused(request: () => Promise<RawAnswer>): Promise<void> {
  const before = await snapshot(hostile.world.url);
  const res = await request();
  if (res.status === 200) {
    const after = (await snapshot(hostile.world.url)) as { scripts: unknown[] };
    expect(after.scripts.length).toBe((before as { scripts: unknown[] }).scripts.length + 1);
    return;
  }
  expectClientError(res);
  expect(await snapshot(hostile.world.url)).toEqual(before);
}

const nameArb = fc.string({ minLength: 1, maxLength: 20 });

describe("hostile multipart uploads to createScript", () => {
  it("createScript: random parts and query → 200 with one script, or a nested 4xx that changed nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(partArb, { maxLength: 4 }), nameArb, async (parts, name) => {
        await expectCreatedOrRefused(() => post(body(parts), [["scriptName", name]]));
      }),
      RUNS,
    );
  });

  it("createScript: a valid upload cut at every byte → 200 only once the closing boundary is in, else a nested 4xx", async () => {
    const whole = body([{ name: "file", filename: "s.sh", data: new TextEncoder().encode("echo cut\n") }]);
    const closed = whole.length - "\r\n".length;
    for (let cut = 0; cut <= whole.length; cut++) {
      let status = 0;
      await expectCreatedOrRefused(async () => {
        const res = await post(whole.subarray(0, cut), [["scriptName", `cut-${cut}`]]);
        status = res.status;
        return res;
      });
      expect({ cut, created: status === 200 }).toEqual({ cut, created: cut >= closed });
    }
  });

  it("createScript: random bytes under a multipart content type → never a 5xx; a refusal changes nothing", async () => {
    const typeArb = fc.oneof(
      fc.constant(`multipart/form-data; boundary=${BOUNDARY}`),
      fc.constant("multipart/form-data"),
      fc.string({ maxLength: 30 }).map((b) => `multipart/form-data; boundary=${b.replace(/[\r\n]/g, "")}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), typeArb, async (bytes, type) => {
        await expectCreatedOrRefused(() => post(Buffer.from(bytes), [["scriptName", "random-bytes"]], type));
      }),
      RUNS,
    );
  });
});
