/**
 * The registry (implementations.ts) as derived from the declarations the resource folders make:
 * every declaration found is registered, each declared kind's class is in the package, and an
 * implementation loads on first use only (a Script call loads nothing of the Machine's).
 */
import { execFileSync } from "child_process";
import * as path from "path";
import * as root from "../../../src/index";
import { dynamicType } from "../../../src/contract/typeTokens";
import { RESOURCE_KINDS } from "../../../src/provider/implementations";
import { declaredResources } from "../../../tools/schema/declarations";

const REPO = path.resolve(__dirname, "..", "..", "..");

/** Runs `code` in a fresh Node process at the repository root (dist/ compiled by the global setup). */
function inFreshNode(code: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ["-e", code], { cwd: REPO, encoding: "utf8" }));
}

describe("the resource registry", () => {
  test("registry: every declaration under src/provider → a registered kind, and no other kind", () => {
    const declared = declaredResources().map(({ declaration }) => declaration.kind);
    expect([...RESOURCE_KINDS].sort()).toEqual(declared.sort());
  });

  test("package: each declared kind → a class of that name exported by the root, with its type token", () => {
    const exported = root as unknown as Record<string, { __pulumiType?: string } | undefined>;
    for (const kind of RESOURCE_KINDS) {
      expect([kind, exported[kind]?.__pulumiType]).toEqual([kind, dynamicType(kind)]);
    }
  });

  test("lazy: a Script's implementation → nothing of machine/ but the Machine's declaration", () => {
    const loaded = inFreshNode(`
      const { implementationOf } = require("./dist/provider/implementations.js");
      const inMachine = () => Object.keys(require.cache)
        .filter((file) => file.includes("/dist/provider/machine/"))
        .map((file) => require("path").basename(file))
        .sort();
      const script = implementationOf("Script");
      const afterScript = inMachine();
      implementationOf("Machine");
      console.log(JSON.stringify({
        create: typeof script.create,
        afterScript,
        machineLoaded: inMachine().includes("machineProvider.js"),
      }));`);
    expect(loaded).toEqual({
      create: "function",
      afterScript: ["machineResource.js"],
      machineLoaded: true,
    });
  });
});
