/**
 * The provider's layer rules (eslint.config.mjs) hold for a resource folder that does not exist
 * yet: the rules name the provider's ground and its doors, never the resource folders, so a new
 * folder is under them without editing the config. Each case lints a file eslint is handed on
 * stdin under a path of its own (in a process of its own: the config is an ES module).
 */
import { spawnSync } from "child_process";
import * as path from "path";

const REPO = path.resolve(__dirname, "..", "..", "..");
/** eslint's command (its package exports only its API, lib/api.js, beside which bin/ is). */
const ESLINT = path.join(path.dirname(require.resolve("eslint")), "..", "bin", "eslint.js");

/** The rule messages eslint gives `code` as if it were the file at `file`. */
function lintMessages(file: string, code: string): string[] {
  const run = spawnSync(process.execPath, [ESLINT, "--format", "json", "--stdin", "--stdin-filename", file], {
    cwd: REPO,
    input: code,
    encoding: "utf8",
    timeout: 60_000,
  });
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("the provider's layer rules", () => {
  test("a new resource folder: importing a door or the registry → refused; shared/ and the client → allowed", () => {
    const messages = lintMessages(
      "src/provider/network/networkProvider.ts",
      [
        'import { Machine } from "../dynamic/machine";',
        'import { NativeProvider } from "../native/nativeProvider";',
        'import { RESOURCE_KINDS } from "../implementations";',
        'import { UNKNOWN } from "../shared/unknown";',
        'import { VmApiClient } from "../../client/client";',
        "export const all = [Machine, NativeProvider, RESOURCE_KINDS, UNKNOWN, VmApiClient];",
        "",
      ].join("\n"),
    );
    expect(messages.map((m) => m.split("'")[1])).toEqual([
      "../dynamic/machine",
      "../native/nativeProvider",
      "../implementations",
    ]);
  }, 60_000);

  test("shared/: importing a new resource folder → refused; account/ → allowed", () => {
    const messages = lintMessages(
      "src/provider/shared/probe.ts",
      [
        'import { networkResource } from "../network/networkResource";',
        'import { accountOf } from "../account/account";',
        "export const all = [networkResource, accountOf];",
        "",
      ].join("\n"),
    );
    expect(messages.map((m) => m.split("'")[1])).toEqual(["../network/networkResource"]);
  }, 60_000);
});
