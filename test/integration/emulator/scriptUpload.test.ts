/**
 * createScript as a multipart upload (docs/api.md, "Scripts"): the script is the part named
 * `file`, the other parameters travel in the query string in their string forms. The 16 KB limit
 * and every other script rule hold as for JSON; a refused upload creates nothing.
 */
import { ScriptSchema } from "../../../src/contract/schemas";
import { SCRIPT_MAX_BYTES } from "../../../src/contract/constants";
import { Api, createBody, useFixture, type ErrorBody } from "./api";

const fx = useFixture();

/** One part of a hand-built multipart body: a file when `filename` is given, else a text field. */
interface Part {
  name: string;
  filename?: string;
  data: string | Buffer;
}

const BOUNDARY = "----vmapi-test-boundary";

/** The bytes of a multipart/form-data body, built by hand so tests control every byte. */
function multipart(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename !== undefined ? `; filename="${part.filename}"` : "";
    const type = part.filename !== undefined ? "Content-Type: application/x-sh\r\n" : "";
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n`),
    );
    chunks.push(Buffer.from(`${type}\r\n`), Buffer.from(part.data), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** POST /scripts/createScript with `query` and a multipart body. */
function upload(api: Api, query: Record<string, string>, parts: Part[]) {
  return api.call("POST", "/scripts/createScript", {
    query,
    raw: multipart(parts),
    headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

const scriptFile = (data: string | Buffer): Part => ({ name: "file", filename: "s.sh", data });

async function scriptCount(): Promise<number> {
  return (await fx.emu.control.state()).scripts.length;
}

/** The answer is `status` with `code`, its message matches, and no script was created. */
async function expectRefused(
  answer: Promise<{ status: number; body: unknown }>,
  status: number,
  message: RegExp,
): Promise<void> {
  const before = await scriptCount();
  const res = await answer;
  expect(res.status).toBe(status);
  expect((res.body as ErrorBody).error.message).toMatch(message);
  expect(await scriptCount()).toBe(before);
}

describe("createScript with a multipart upload", () => {
  it("createScript: file part and query parameters → 200; getScriptText gives the file", async () => {
    const text = "#!/bin/bash\necho from a file\n";
    const res = await upload(
      fx.individual,
      { scriptName: "uploaded", isEnabled: "false", runOnce: "true", scriptDescription: "from disk" },
      [scriptFile(text)],
    );
    expect(res.status).toBe(200);
    const script = ScriptSchema.parse(res.body);
    expect(script).toMatchObject({
      name: "uploaded",
      isEnabled: false,
      runOnce: true,
      description: "from disk",
    });
    const read = await fx.individual.get("/scripts/getScriptText", { scriptId: script.id });
    expect(read.body).toBe(text);
  });

  it("createScript: upload without flags → the JSON defaults (enabled, every boot)", async () => {
    const res = await upload(fx.individual, { scriptName: "defaults" }, [scriptFile("echo d")]);
    expect(res.body).toMatchObject({ isEnabled: true, runOnce: false });
  });

  it("createScript: upload with machineId in the query → attached to that machine", async () => {
    const machine = (
      await fx.individual.post<{ id: string }>("/machines/createSingleMachinePublic", createBody())
    ).body;
    const res = await upload(fx.individual, { scriptName: "attached", machineId: machine.id }, [
      scriptFile("echo a"),
    ]);
    const script = ScriptSchema.parse(res.body);
    const shown = await fx.individual.get<{ scriptId: string }>("/machines/getMachinePublic", {
      machineId: machine.id,
    });
    expect(shown.body.scriptId).toBe(script.id);
  });

  it("createScript: a file of exactly 16 KB → 200", async () => {
    const res = await upload(fx.individual, { scriptName: "exactly16k" }, [
      scriptFile("a".repeat(SCRIPT_MAX_BYTES)),
    ]);
    expect(res.status).toBe(200);
  });

  it("createScript: a file one byte over 16 KB → 413 naming the limit, nothing created", async () => {
    await expectRefused(
      upload(fx.individual, { scriptName: "too-big" }, [scriptFile("a".repeat(SCRIPT_MAX_BYTES + 1))]),
      413,
      /uploaded file is 16385 bytes; the limit is 16384 bytes/,
    );
  });

  it("createScript: upload reusing a script name → 409, nothing created", async () => {
    await upload(fx.individual, { scriptName: "twice" }, [scriptFile("echo 1")]);
    await expectRefused(
      upload(fx.individual, { scriptName: "twice" }, [scriptFile("echo 2")]),
      409,
      /already exists/,
    );
  });

  it.each([
    ["no scriptName", {}, [scriptFile("x")], /scriptName is required/],
    [
      "a flag that is not true/false",
      { scriptName: "f", runOnce: "yes" },
      [scriptFile("x")],
      /runOnce must be one of: true, false \(got "yes"\)/,
    ],
    [
      "scriptText as well as a file",
      { scriptName: "f", scriptText: "x" },
      [scriptFile("x")],
      /either as scriptText or as a file, not both/,
    ],
    [
      "parameters as form fields",
      {},
      [{ name: "scriptName", data: "f" }, scriptFile("x")],
      /form fields are not read \(got "scriptName"\).*query string/,
    ],
    [
      "the file under another part name",
      { scriptName: "f" },
      [{ ...scriptFile("x"), name: "script" }],
      /part named file \(got "script"\)/,
    ],
    ["two files", { scriptName: "f" }, [scriptFile("x"), scriptFile("y")], /one file part, not 2/],
    ["no file at all", { scriptName: "f" }, [], /needs the script as the part named file/],
    ["an empty file", { scriptName: "f" }, [scriptFile("")], /uploaded file is empty/],
    [
      "a file that is not UTF-8",
      { scriptName: "f" },
      [scriptFile(Buffer.from([0x65, 0xff, 0xfe]))],
      /not UTF-8/,
    ],
    ["a control character in the name", { scriptName: "a\u0007b" }, [scriptFile("x")], /scriptName/],
  ] as const)("createScript: upload with %s → 400, nothing created", async (_what, query, parts, message) => {
    await expectRefused(upload(fx.individual, { ...query }, [...parts]), 400, message);
  });

  it("createScript: a multipart body that is cut short → 400, nothing created", async () => {
    const whole = multipart([scriptFile("echo cut")]);
    const res = fx.individual.call("POST", "/scripts/createScript", {
      query: { scriptName: "cut" },
      raw: whole.subarray(0, whole.length - 20),
      headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    });
    await expectRefused(res, 400, /not valid multipart\/form-data/);
  });

  it("createScript: an upload of 33 parts → 400 naming the 32-part limit, nothing created", async () => {
    const parts = Array.from({ length: 33 }, (_, i) => ({ ...scriptFile("x"), name: `file${i}` }));
    await expectRefused(upload(fx.individual, { scriptName: "many" }, parts), 400, /more than 32 parts/);
  });

  it("createScript: multipart without a boundary → 400, nothing created", async () => {
    const res = fx.individual.call("POST", "/scripts/createScript", {
      query: { scriptName: "nb" },
      raw: "garbage",
      headers: { "Content-Type": "multipart/form-data" },
    });
    await expectRefused(res, 400, /not valid multipart\/form-data: .*[Bb]oundary/);
  });

  it("createScript: a team member's upload without a file → 403, before the upload rules", async () => {
    await expectRefused(upload(fx.member, {}, []), 403, /only account administrators/);
  });

  it("createMachine: a multipart body → 415; only createScript takes uploads", async () => {
    const res = await fx.individual.call("POST", "/machines/createSingleMachinePublic", {
      raw: multipart([scriptFile("x")]),
      headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    });
    expect(res.status).toBe(415);
    expect((res.body as ErrorBody).error.message).toMatch(/must be application\/json for a request body/);
  });
});
