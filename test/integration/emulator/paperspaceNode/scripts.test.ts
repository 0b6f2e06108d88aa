/**
 * paperspace-node 0.2.4's `scripts` methods, unchanged, against the emulator. `scripts.create`
 * sends `scriptText` as JSON, but `scriptFile` as a multipart upload (part `file`) with the other
 * parameters in the query string, booleans as "true"/"false" (lib/client.js, lib/request.js).
 */
import * as fs from "node:fs";
import { useTempDirs } from "../../../kit/tempDirs";
import * as path from "node:path";
import { SCRIPT_MAX_BYTES } from "../../../../src/contract/constants";
import { ScriptListSchema, ScriptSchema } from "../../../../src/contract/schemas";
import { expectHttpError, expectOk, useClientFixture } from "./harness";
import { SEEDED } from "../../../kit/seeded";
import { MACHINE_BASICS } from "../../../kit/machines";

const fx = useClientFixture();
const tempDir = useTempDirs();
let dir: string;
let machineId: string;
beforeAll(async () => {
  dir = tempDir("vmapi-psnode-");
  machineId = expectOk(
    await fx.call<{ id: string }>("machines.create", {
      ...MACHINE_BASICS,
      machineName: "script target",
      templateId: SEEDED.desktopTemplate,
    }),
  ).id;
});

/** A script file on disk, as `scriptFile` names one. */
function scriptFile(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function textOf(scriptId: string): Promise<unknown> {
  return expectOk(await fx.call("scripts.text", { scriptId }));
}

async function machineScriptId(): Promise<string | null> {
  return expectOk(await fx.call<{ scriptId: string | null }>("machines.show", { machineId })).scriptId;
}

/** scripts.create with `params`, attached to the file's machine: the script answered, strictly (no text). */
async function createdScript(params: Record<string, unknown>) {
  return ScriptSchema.strict().parse(expectOk(await fx.call("scripts.create", { ...params, machineId })));
}

describe("paperspace-node scripts", () => {
  it("scripts.create: scriptText and every option → the script (no text); text and attachment as sent", async () => {
    const script = await createdScript({
      scriptName: "My Script",
      scriptText: "#!/bin/bash\necho text\n",
      scriptDescription: "A startup script",
      isEnabled: false,
      runOnce: true,
    });
    expect(script).toMatchObject({
      name: "My Script",
      description: "A startup script",
      isEnabled: false,
      runOnce: true,
    });
    expect(script).toMatchObject({ ownerType: "user", ownerId: SEEDED.individualUser });
    expect(await textOf(script.id)).toBe("#!/bin/bash\necho text\n");
    expect(await machineScriptId()).toBe(script.id);
  });

  it("scripts.create: scriptFile and every option → 200; the text is the file's; the query's 'true'/'false' applied", async () => {
    const content = '#!/bin/bash\necho "from a file" é\n';
    const script = await createdScript({
      scriptName: "From File",
      scriptFile: scriptFile("s.sh", content),
      scriptDescription: "uploaded",
      isEnabled: true,
      runOnce: false,
    });
    expect(script).toMatchObject({
      name: "From File",
      description: "uploaded",
      isEnabled: true,
      runOnce: false,
    });
    expect(await textOf(script.id)).toBe(content);
    expect(await machineScriptId()).toBe(script.id);
    const disabled = await fx.call("scripts.create", {
      scriptName: "Disabled File",
      scriptFile: scriptFile("d.sh", "echo d"),
      isEnabled: false,
      runOnce: true,
    });
    expect(ScriptSchema.parse(expectOk(disabled))).toMatchObject({ isEnabled: false, runOnce: true });
  });

  it("scripts.create: a 16 KB file → 200; one byte more, as a file or as text → 413 naming the limit", async () => {
    const exact = await fx.call("scripts.create", {
      scriptName: "exactly 16 KB",
      scriptFile: scriptFile("16k.sh", "a".repeat(SCRIPT_MAX_BYTES)),
    });
    expect((await textOf(ScriptSchema.parse(expectOk(exact)).id)) as string).toHaveLength(SCRIPT_MAX_BYTES);
    const big = "a".repeat(SCRIPT_MAX_BYTES + 1);
    const asFile = await fx.call("scripts.create", {
      scriptName: "big",
      scriptFile: scriptFile("big.sh", big),
    });
    expect(expectHttpError(asFile, 413, "payload_too_large")).toBe(
      "the uploaded file is 16385 bytes; the limit is 16384 bytes (16 KB)",
    );
    const asText = await fx.call("scripts.create", { scriptName: "big", scriptText: big });
    expect(expectHttpError(asText, 413, "payload_too_large")).toMatch(/^scriptText is 16385 bytes/);
  });

  it("scripts.create: a name already used, by file → 409; an empty file → 400; nothing created", async () => {
    const count = async () => (await fx.emu.control.state()).scripts.length;
    const before = await count();
    const again = await fx.call("scripts.create", {
      scriptName: "My Script",
      scriptFile: scriptFile("a.sh", "echo"),
    });
    expect(expectHttpError(again, 409, "conflict")).toBe(
      "a script named My Script already exists for this user",
    );
    const empty = await fx.call("scripts.create", {
      scriptName: "empty",
      scriptFile: scriptFile("e.sh", ""),
    });
    expect(expectHttpError(empty, 400, "validation_failed")).toBe("the uploaded file is empty");
    expect(await count()).toBe(before);
  });

  it("scripts.create: both scriptFile and scriptText, or neither → the client's own error, nothing sent", async () => {
    const before = (await fx.emu.control.state()).requestCounts;
    const both = await fx.call("scripts.create", { scriptName: "x", scriptText: "a", scriptFile: "s.sh" });
    expect(both.err?.message).toBe("Only one of scriptFile or scriptText allowed");
    const neither = await fx.call("scripts.create", { scriptName: "x" });
    expect(neither.err?.message).toBe("Missing required parameter: either scriptFile or scriptText");
    expect((await fx.emu.control.state()).requestCounts).toEqual(before);
  });

  it("scripts.create: a team member, by file → 403 before the upload is looked at", async () => {
    const answer = await fx.call(
      "scripts.create",
      { scriptName: "member", scriptFile: scriptFile("m.sh", "echo") },
      fx.emu.keys.teamMember,
    );
    expect(expectHttpError(answer, 403, "forbidden")).toMatch(
      /only account administrators may create scripts/,
    );
  });

  it("scripts.list: no filter → every script of the account; filters (booleans as strings) narrow it", async () => {
    const all = ScriptListSchema.parse(expectOk(await fx.call("scripts.list")));
    expect(all.map((s) => s.name)).toEqual(["My Script", "From File", "Disabled File", "exactly 16 KB"]);
    const names = async (filter: Record<string, unknown>) =>
      ScriptListSchema.parse(expectOk(await fx.call("scripts.list", filter))).map((s) => s.name);
    expect(await names({ isEnabled: false })).toEqual(["My Script", "Disabled File"]);
    expect(await names({ runOnce: true, isEnabled: false })).toEqual(["My Script", "Disabled File"]);
    expect(await names({ ownerType: "user", name: "From File" })).toEqual(["From File"]);
    expect(await names({ description: null })).toEqual(["Disabled File", "exactly 16 KB"]);
  });

  it("scripts.list: filter id → exactly that script; an unknown or another account's id → []", async () => {
    const all = ScriptListSchema.parse(expectOk(await fx.call("scripts.list")));
    const ids = async (filter: Record<string, unknown>, key?: string) =>
      ScriptListSchema.parse(expectOk(await fx.call("scripts.list", filter, key))).map((s) => s.id);
    expect(await ids({ id: all[2].id })).toEqual([all[2].id]);
    expect(await ids({ id: "sc123abc" })).toEqual([]);
    expect(await ids({ id: all[2].id }, fx.emu.keys.teamAdmin)).toEqual([]);
  });

  it("scripts.show: → the script with the machines running it; an unknown id → 404", async () => {
    const [, fromFile] = ScriptListSchema.parse(expectOk(await fx.call("scripts.list")));
    const shown = ScriptSchema.strict().parse(
      expectOk(await fx.call("scripts.show", { scriptId: fromFile.id })),
    );
    expect(shown.machines).toEqual([{ machineId, machineName: "script target", dtLastRun: null }]);
    expect(expectHttpError(await fx.call("scripts.show", { scriptId: "sc123abc" }), 404, "not_found")).toBe(
      "scriptId sc123abc not found",
    );
  });

  it("scripts.text: → the text as one JSON string; an unknown id → 404", async () => {
    const [first] = ScriptListSchema.parse(expectOk(await fx.call("scripts.list")));
    expect(typeof (await textOf(first.id))).toBe("string");
    expectHttpError(await fx.call("scripts.text", { scriptId: "sc123abc" }), 404, "not_found");
  });

  it("scripts.destroy: → 204 (the client gets {}); detached from its machine; gone afterwards", async () => {
    const scriptId = (await machineScriptId()) as string;
    expect(expectOk(await fx.call("scripts.destroy", { scriptId }))).toEqual({});
    expect(await machineScriptId()).toBeNull();
    expectHttpError(await fx.call("scripts.show", { scriptId }), 404, "not_found");
    expectHttpError(await fx.call("scripts.destroy", { scriptId }), 404, "not_found");
  });

  it("coverage: every scripts.* method of paperspace-node → called above", () => {
    const scripts = fx.methods().filter((m) => m.startsWith("scripts."));
    expect(scripts.filter((m) => !fx.called.has(m))).toEqual([]);
    expect(scripts).toHaveLength(5);
  });
});
