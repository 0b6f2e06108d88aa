/**
 * The Go SDK as a Go user gets it: a module version, `go get`
 * github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi@v0.1.0, served here by a local module proxy
 * folder (tools/gomodule/proxy.sh: the zip made by golang.org/x/mod/zip) ahead of the usual proxy,
 * into a fresh module with no `replace`; that module's program (test/e2e/programs/importGo) built
 * and run on the real engine against an emulator: it takes in a machine with the `import` resource
 * option, with no warning, and the next preview changes nothing.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO } from "./support/cli";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { expectImportRoundTrip } from "./support/importProgram";
import { prepareExample } from "./support/languageExample";

jest.setTimeout(300_000);

const MODULE = "github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi";
const VERSION = `v${(JSON.parse(fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8")) as { version: string }).version}`;

let dir: string;
/** What Go needs to find the SDK's version: the proxy folder first. */
let goVariables: NodeJS.ProcessEnv;
let goEnv: NodeJS.ProcessEnv;
const go = (...args: string[]) =>
  execFileSync("go", args, { cwd: dir, env: goEnv, encoding: "utf8", stdio: "pipe" });

beforeAll(() => {
  const proxy = execFileSync("bash", [path.join(REPO, "tools", "gomodule", "proxy.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  const usual = execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim();
  goVariables = {
    GOPROXY: `file://${proxy},${usual}`,
    // The module's path is nobody's on the checksum database: no lookup there for it.
    GONOSUMDB: "github.com/pulumi-vmapi",
    GOPRIVATE: "",
    // -mod=mod: the runner built into the program (tools/examples/go.sh) imports packages the
    // program does not, whose checksums the build records.
    GOFLAGS: [process.env.GOFLAGS, "-mod=mod"].filter(Boolean).join(" "),
  };
  goEnv = { ...process.env, ...goVariables };
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-gomodule-"));
  const program = path.join(PROGRAMS, "importGo");
  for (const file of ["main.go", "program.go"])
    fs.copyFileSync(path.join(program, file), path.join(dir, file));
  // The plugin of this repository (a project of your own installs it with `pulumi plugin install`).
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    fs.readFileSync(path.join(program, "Pulumi.yaml"), "utf8") +
      `plugins:\n  providers:\n    - name: vmapi\n      path: ${path.join(REPO, "plugin")}\n`,
  );
  go("mod", "init", "example.com/vmapi-import");
  go("get", `${MODULE}@${VERSION}`);
  go("mod", "tidy");
  // Built once per machine and source (minutes the first time), as the examples are.
  prepareExample("go", dir, goEnv);
}, 20 * 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the Go SDK from a module proxy", () => {
  test("go get …/sdk/go/vmapi@v0.1.0 → go.mod requires that version, without a replace; go.sum holds its hash", () => {
    const goMod = fs.readFileSync(path.join(dir, "go.mod"), "utf8");
    expect(goMod).toMatch(new RegExp(`^\\s*${MODULE.replace(/\./g, "\\.")} ${VERSION}$`, "m"));
    expect(goMod).not.toMatch(/^replace/m);
    expect(fs.readFileSync(path.join(dir, "go.sum"), "utf8")).toContain(`${MODULE} ${VERSION} h1:`);
    // The module Go resolved is the proxy's zip, not a folder of this repository.
    const where = JSON.parse(go("list", "-m", "-json", MODULE)) as { Dir: string; Replace?: unknown };
    expect(where.Replace).toBeUndefined();
    // Go's module cache, wherever GOMODCACHE puts it (a CI may move it), not this repository.
    const moduleCache = go("env", "GOMODCACHE").trim();
    expect(where.Dir.startsWith(moduleCache + path.sep)).toBe(true);
    expect(where.Dir.startsWith(REPO + path.sep)).toBe(false);
  });

  describe("its program on the real engine", () => {
    const ctx = useE2eContext();

    test("the import resource option: a machine made outside → imported with no warning, nothing written; preview → no change", async () => {
      await expectImportRoundTrip(ctx, "go", { dir, project: "vmapi-import-go", env: goVariables });
    });
  });
});
