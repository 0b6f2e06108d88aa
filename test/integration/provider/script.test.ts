/**
 * The Script provider against the emulator: create, read and delete; a script's text from
 * `scriptText` or a file, its size limit, and which changes replace it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useProviderKitWithMachine } from "./providerTestKit";

const kit = useProviderKitWithMachine();
let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-script-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("Script provider", () => {
  it("create → read → delete: outputs owner and machines; gone after delete", async () => {
    const { inputs } = await kit.providers.script.check(
      {},
      { __resourceName: "boot", scriptText: "echo hi", machineId: kit.machineId },
      kit.settings,
    );
    const { id, outs } = await kit.providers.script.create(inputs!, kit.settings);
    expect(outs).toMatchObject({ ownerType: "user", name: expect.stringMatching(/^boot-/), scriptId: id });
    expect(outs.machines).toEqual([expect.objectContaining({ machineId: kit.machineId })]);
    const read = await kit.providers.script.read(id, outs, kit.settings);
    expect(read.id).toBe(id);
    await kit.providers.script.delete(id, outs, kit.settings);
    expect(await kit.providers.script.read(id, outs, kit.settings)).toEqual({});
    await expect(kit.providers.script.delete(id, outs, kit.settings)).resolves.toBeUndefined();
  });

  it("diff: a changed file at the same path → replace", async () => {
    const file = path.join(tmp, "setup.sh");
    fs.writeFileSync(file, "echo one");
    const first = (
      await kit.providers.script.check({}, { __resourceName: "f", scriptFile: file }, kit.settings)
    ).inputs!;
    fs.writeFileSync(file, "echo two");
    const second = (
      await kit.providers.script.check(first, { __resourceName: "f", scriptFile: file }, kit.settings)
    ).inputs!;
    expect(second.name).toBe(first.name);
    expect(await kit.providers.script.diff("sc1", first, second)).toMatchObject({
      changes: true,
      replaces: ["contentSha256"],
    });
  });

  it("check: 16 KB + 1 byte file → failure with the size; neither text nor file → failure", async () => {
    const file = path.join(tmp, "big.sh");
    fs.writeFileSync(file, "x".repeat(16 * 1024 + 1));
    const big = await kit.providers.script.check(
      {},
      { __resourceName: "big", scriptFile: file },
      kit.settings,
    );
    expect(big.failures).toEqual([
      { property: "scriptFile", reason: expect.stringContaining("16385 bytes") },
    ]);
    const none = await kit.providers.script.check({}, { __resourceName: "none" }, kit.settings);
    expect(none.failures!.map((f) => f.property)).toEqual(["scriptText"]);
  });

  it("check: plain scriptText of 20 KB → a failure the engine prints in one short line, without the text", async () => {
    const text = "y".repeat(20 * 1024);
    const inputs = { __resourceName: "huge", scriptText: text };
    const { failures } = await kit.providers.script.check({}, inputs, kit.settings);
    expect(failures).toHaveLength(1);
    // The engine prints a failure as "property 'P' value V has a problem: R", the value in full
    // when it is not a secret (pkg/diag: GetResourcePropertyInvalidValueError).
    const printed = failures!.map((f) =>
      f.property
        ? `property '${f.property}' value ${String((inputs as Record<string, unknown>)[f.property])} has a problem: ${f.reason}`
        : `has a problem: ${f.reason}`,
    );
    expect(printed[0]).toMatch(/scriptText is 20480 bytes; the limit is 16384 bytes/);
    expect(printed[0].length).toBeLessThan(300);
  });

  it("diff: explicit unchanged name with new text → replace, deleting the old one first", async () => {
    const olds = (await kit.providers.script.check({}, { name: "fixed", scriptText: "a" }, kit.settings))
      .inputs!;
    const news = (await kit.providers.script.check(olds, { name: "fixed", scriptText: "b" }, kit.settings))
      .inputs!;
    expect(await kit.providers.script.diff("sc1", olds, news)).toEqual({
      changes: true,
      replaces: ["contentSha256"],
      deleteBeforeReplace: true,
      changed: ["contentSha256", "scriptText"],
    });
  });
});
