/**
 * The host's executable in two scripts (tools/plugin/bundle.ts bundleSnapshotScripts): the start's,
 * held by the startup snapshot, with none of the packages, and the provider's, with the modules
 * the plugin requires lazily; a module both use is the start's alone, which the provider's script
 * asks for (one GrpcFailure class for `instanceof`, one state of each module).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { bundleSnapshotScripts, PROVIDER_MODULES } from "../../../tools/plugin/bundle";

let dir: string;
let start: string;
let provider: string;
let shared: string[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-snapshot-scripts-"));
  const { scripts } = await bundleSnapshotScripts(dir);
  start = fs.readFileSync(scripts.start, "utf8");
  provider = fs.readFileSync(scripts.provider, "utf8");
  shared = scripts.shared;
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the two scripts", () => {
  it("the start → no package (zod, axios), and each lazily required module asked of the provider's script", () => {
    expect(start).not.toContain("node_modules/");
    for (const file of PROVIDER_MODULES) expect(start).toContain(`.providerModule(${JSON.stringify(file)})`);
  });

  it("the provider → zod and axios, and the modules it shares with the start asked of it, never a copy", () => {
    expect(provider).toContain("node_modules/zod/");
    expect(provider).toContain("node_modules/axios/");
    expect(shared).toEqual(
      expect.arrayContaining(["src/provider/native/transport/grpc.ts", "src/client/core/errors.ts"]),
    );
    const asked = [...provider.matchAll(/require\("vmapi-start:([^"]+)"\)/g)].map((match) => match[1]);
    expect([...new Set(asked)].sort()).toEqual(shared);
    // The classes checked with instanceof across the two: defined once, in the start.
    for (const name of ["GrpcFailure", "ConfigurationError"]) {
      // esbuild writes a module's class as `class Name` or `Name = class`.
      const defined = new RegExp(`class ${name}\\b|\\b${name} = class\\b`);
      expect(start).toMatch(defined);
      expect(provider).not.toMatch(defined);
    }
    for (const file of shared) {
      expect(start).toContain(`${JSON.stringify(file)}: () =>`);
      expect(provider).not.toContain(`// ${file}\n`);
    }
  });

  it("the provider → axios without its fetch adapter (undici) and without form-data (mime-types and its database), which the plugin never uses", () => {
    for (const unused of ["node_modules/form-data/", "node_modules/mime-types/", "node_modules/mime-db/"])
      expect(provider).not.toContain(unused);
    expect(provider).toContain("pulumi-resource-vmapi sends no multipart/form-data body");
    expect(provider).not.toMatch(/\bundici\b/);
  });

  it("the provider → axios with Node's http2 loaded at its first use (an HTTP/2 request, which the plugin never makes), not with axios", () => {
    const requires = [...provider.matchAll(/^(.*)require\("http2"\)/gm)].map((m) => m[1].trimStart());
    expect(requires.length).toBeGreaterThan(0);
    for (const before of requires)
      expect(before).toMatch(/^(http2\d* = \{ connect: \(\.\.\.args\) => |return )$/);
  });

  it("the provider → zod with its English messages alone, the one locale zod takes", () => {
    const locales = [...provider.matchAll(/node_modules\/zod\/v4\/locales\/([a-zA-Z-]+)\.js/g)].map(
      (m) => m[1],
    );
    expect([...new Set(locales)].sort()).toEqual(["en", "index"]);
  });

  it("both in ASCII, the provider's as a module's function", () => {
    expect(start).not.toMatch(/[\u0080-\uffff]/);
    expect(provider).not.toMatch(/[\u0080-\uffff]/);
    expect(provider.startsWith("(function (exports, require, module, __filename, __dirname) {")).toBe(true);
  });
});
