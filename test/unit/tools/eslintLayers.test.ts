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

/** What eslint refuses of `specifiers`, each imported by a file at `file`. */
function refusedImports(file: string, specifiers: string[]): string[] {
  const code = [
    ...specifiers.map((specifier, i) => `import * as m${i} from "${specifier}";`),
    `export const all = [${specifiers.map((_, i) => `m${i}`).join(", ")}];`,
    "",
  ].join("\n");
  return lintMessages(file, code).map((m) => m.split("'")[1]);
}

describe("the provider's layer rules", () => {
  test.each([
    {
      name: "a new resource folder: importing a door or the registry → refused; shared/ and the client → allowed",
      file: "src/provider/network/networkProvider.ts",
      imports: [
        "../dynamic/machine",
        "../native/nativeProvider",
        "../implementations",
        "../shared/unknown",
        "../../client/client",
      ],
      refused: ["../dynamic/machine", "../native/nativeProvider", "../implementations"],
    },
    {
      name: "shared/: importing a new resource folder → refused; account/ → allowed",
      file: "src/provider/shared/probe.ts",
      imports: ["../network/networkResource", "../account/accounts"],
      refused: ["../network/networkResource"],
    },
    {
      name: "account/: importing shared/, a resource folder or a door → refused; the client → allowed",
      file: "src/provider/account/probe.ts",
      imports: [
        "../shared/unknown",
        "../network/networkResource",
        "../dynamic/machine",
        "../../client/client",
        "./accounts",
      ],
      refused: ["../shared/unknown", "../network/networkResource", "../dynamic/machine"],
    },
  ])(
    "$name",
    ({ file, imports, refused }) => {
      expect(refusedImports(file, imports)).toEqual(refused);
    },
    60_000,
  );
});
