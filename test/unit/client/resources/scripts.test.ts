/**
 * A script's text from `scriptText` or a file, within the 16 KB limit (src/client/resources/scripts.ts).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveScriptText } from "../../../../src/client/resources/scripts";

describe("resolveScriptText", () => {
  const dir = mkdtempSync(join(tmpdir(), "vmapi-client-"));
  const file = (name: string, bytes: number) => {
    const path = join(dir, name);
    writeFileSync(path, "x".repeat(bytes));
    return path;
  };

  it("resolveScriptText: file of exactly 16 KB → its text", async () => {
    await expect(resolveScriptText(undefined, file("ok.sh", 16384))).resolves.toHaveLength(16384);
  });

  it("resolveScriptText: file of 16 KB + 1 byte → ValidationError with the size", async () => {
    await expect(resolveScriptText(undefined, file("big.sh", 16385))).rejects.toThrow(
      /is 16385 bytes; the limit is 16384 bytes/,
    );
  });

  it("resolveScriptText: text over 16 KB in UTF-8 bytes → ValidationError with the size", async () => {
    await expect(resolveScriptText("é".repeat(8193), undefined)).rejects.toThrow(/scriptText is 16386 bytes/);
  });

  it("resolveScriptText: both or neither given → ValidationError", async () => {
    await expect(resolveScriptText("a", "b")).rejects.toThrow(/not both/);
    await expect(resolveScriptText(undefined, undefined)).rejects.toThrow(/is required/);
  });

  it("resolveScriptText: missing file → ValidationError with the code", async () => {
    await expect(resolveScriptText(undefined, join(dir, "absent.sh"))).rejects.toThrow(
      /cannot be read \(ENOENT\)/,
    );
  });
});
