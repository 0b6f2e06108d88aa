/**
 * The Python SDK as a Python user gets it: a wheel and an sdist built by the standard build front
 * end (`python -m build`: tools/python/wheel.sh), the wheel installed by pip into a fresh venv with
 * its dependencies resolved from the package index (tools/python/packageVenv.sh), at both ends of
 * the `pulumi` range it declares: the lowest version the range allows and the newest the index
 * serves. On each, a program (test/e2e/programs/importPython) runs on the real engine against an
 * emulator: it takes in a machine with the `import` resource option, with no warning, and the next
 * preview changes nothing.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { REPO } from "./support/cli";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { expectImportRoundTrip } from "./support/importProgram";

jest.setTimeout(300_000);

const PYPROJECT = fs.readFileSync(path.join(REPO, "sdk", "python", "pyproject.toml"), "utf8");
const VERSION = /^\s*version = "([^"]+)"/m.exec(PYPROJECT)![1];
const run = (file: string, ...args: string[]) =>
  execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
const packageVenv = (end: string) => run("bash", path.join(REPO, "tools", "python", "packageVenv.sh"), end);

test(
  "python -m build → a wheel and an sdist of pulumi_vmapi at the schema's version; installed, its metadata holds the Python, the pulumi range and the README the pyproject names",
  () => {
    const dist = run("bash", path.join(REPO, "tools", "python", "wheel.sh"));
    expect(fs.readdirSync(dist).sort()).toEqual([
      `pulumi_vmapi-${VERSION}-py3-none-any.whl`,
      `pulumi_vmapi-${VERSION}.tar.gz`,
    ]);
    const metadata = run(
      packageVenv("lowest"),
      "-c",
      "import importlib.metadata as m; print(m.distribution('pulumi_vmapi').read_text('METADATA'))",
    );
    expect(metadata).toContain("Requires-Python: >=3.11");
    expect(metadata).toMatch(/Requires-Dist: pulumi(<4\.0\.0,>=3\.269\.0|>=3\.269\.0,<4\.0\.0)/);
    expect(metadata).toContain(`pip install pulumi_vmapi==${VERSION}`);
  },
  20 * 60_000,
);

describe.each(["lowest", "newest"])(
  "the wheel in a fresh venv with the %s pulumi its range allows",
  (end) => {
    let python: string;
    const ctx = useE2eContext();
    beforeAll(async () => {
      python = packageVenv(end);
    }, 20 * 60_000);

    test("pip resolved the dependencies: pulumi at that end of the range, grpcio with it, the SDK from the wheel", () => {
      const script =
        "import json, importlib.metadata as m; print(json.dumps({n: m.version(n) for n in ['pulumi', 'pulumi_vmapi', 'grpcio']}))";
      const versions = JSON.parse(run(python, "-c", script)) as Record<string, string>;
      expect(versions.pulumi_vmapi).toBe(VERSION);
      const [major, minor] = versions.pulumi.split(".").map(Number);
      expect([major, end === "lowest" ? versions.pulumi : minor >= 269]).toEqual([
        3,
        end === "lowest" ? "3.269.0" : true,
      ]);
      expect(versions.grpcio).toMatch(/^\d+\./);
    });

    test("the import resource option: a machine made outside → imported with no warning, nothing written; preview → no change", async () => {
      // The program's folder as it is; the venv holds what its requirements.txt names.
      await expectImportRoundTrip(ctx, "python", {
        dir: path.join(PROGRAMS, "importPython"),
        project: "vmapi-import-python",
        python,
      });
    });
  },
);
