/**
 * The package's entry points as a user's project resolves them (`node_modules/pulumi-vmapi`,
 * linked to this repository, compiled `dist/` from the test run's global setup).
 */
import { execFileSync } from "child_process";

/** Runs `code` in a fresh Node process from the repository root; its stdout, parsed. */
function inFreshNode(code: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ["-e", code], { encoding: "utf8" }));
}

describe("package exports", () => {
  it("pulumi-vmapi/client: the client without loading @pulumi/pulumi", () => {
    const result = inFreshNode(`
      const client = require("pulumi-vmapi/client");
      const pulumiLoaded = Object.keys(require.cache).some((k) => k.includes("@pulumi"));
      console.log(JSON.stringify({ client: typeof client.VmApiClient, pulumiLoaded }));`);
    expect(result).toEqual({ client: "function", pulumiLoaded: false });
  });

  it("root, emulator and the runtime entry of old state resolve; internal modules do not", () => {
    const result = inFreshNode(`
      const resolves = (id) => { try { require.resolve(id); return true; } catch (e) { return e.code; } };
      console.log(JSON.stringify({
        root: typeof require("pulumi-vmapi").Machine,
        emulator: typeof require("pulumi-vmapi/emulator").startEmulator,
        runtime: resolves("pulumi-vmapi/dist/provider/runtime.js"),
        internal: resolves("pulumi-vmapi/dist/client/core/http.js"),
      }));`);
    expect(result).toEqual({
      root: "function",
      emulator: "function",
      runtime: true,
      internal: "ERR_PACKAGE_PATH_NOT_EXPORTED",
    });
  });

  it("vmapi-review: the bin named in package.json loads without @pulumi/pulumi (a CI step stays fast)", () => {
    const result = inFreshNode(`
      const bin = require("pulumi-vmapi/package.json").bin["vmapi-review"];
      const cli = require(require("path").join(require.resolve("pulumi-vmapi/package.json"), "..", bin));
      const pulumiLoaded = Object.keys(require.cache).some((k) => k.includes("@pulumi"));
      console.log(JSON.stringify({ bin, run: typeof cli.runReviewCli, pulumiLoaded }));`);
    expect(result).toEqual({ bin: "dist/review/cli.js", run: "function", pulumiLoaded: false });
  });
});
