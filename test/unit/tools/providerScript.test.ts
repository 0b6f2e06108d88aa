/**
 * The provider's script of the host's single executable (tools/plugin/providerScript.ts): compiled
 * once with its code cache, run at the first module asked of it, its modules run when first
 * required, and a module of the start's handed to it as the start's own object (one class, one
 * state), Node's modules as Node's, anything else not found.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vm from "vm";
import type * as ProviderScriptModule from "../../../tools/plugin/providerScript";

/** A fresh copy of the loader (its state is the process's). */
function loader(): typeof ProviderScriptModule {
  let loaded: typeof ProviderScriptModule | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<typeof ProviderScriptModule>("../../../tools/plugin/providerScript");
  });
  return loaded!;
}

/** A provider's script as bundle.ts writes it: a module function whose exports are a module table. */
const SCRIPT = `(function (exports, require, module, __filename, __dirname) {
  require("vmapi-start:src/runs.ts").runs += 1;
  const shared = require("vmapi-start:src/provider/native/transport/grpc.ts");
  module.exports = {
    "src/provider/native/nativeProvider.ts": () => ({
      failure: new shared.GrpcFailure("no"),
      sameModule: require("vmapi-start:src/provider/native/transport/grpc.ts") === shared,
      fs: require("node:fs"),
    }),
  };
})`;

/** The start's side: a module with a class the provider's script makes instances of. */
class GrpcFailure extends Error {}

function sourceOf(text: string, cachedData?: Buffer): ProviderScriptModule.ProviderSource {
  return { source: () => text, cachedData: () => cachedData };
}

describe("providerModule", () => {
  it("the first module asked → the script compiled and run once; the start's module is the start's (instanceof holds), Node's modules Node's", () => {
    const script = loader();
    const loads = jest.fn(() => ({ GrpcFailure }));
    const runs = { runs: 0 };
    script.shareStartModules({ "src/provider/native/transport/grpc.ts": loads, "src/runs.ts": () => runs });
    script.useProviderSource(sourceOf(SCRIPT));
    const first = script.providerModule("src/provider/native/nativeProvider.ts") as {
      failure: unknown;
      sameModule: boolean;
      fs: unknown;
    };
    expect(first.failure).toBeInstanceOf(GrpcFailure);
    expect(first.sameModule).toBe(true);
    expect(first.fs).toBe(process.getBuiltinModule("fs"));
    script.providerModule("src/provider/native/nativeProvider.ts");
    expect(runs.runs).toBe(1);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it("a module the script does not hold → an error that names it", () => {
    const script = loader();
    script.useProviderSource(sourceOf(SCRIPT));
    script.shareStartModules({
      "src/provider/native/transport/grpc.ts": () => ({ GrpcFailure }),
      "src/runs.ts": () => ({ runs: 0 }),
    });
    expect(() => script.providerModule("src/nowhere.ts")).toThrow(
      "the provider's script holds no src/nowhere.ts",
    );
  });

  it("no source given → an error, nothing compiled", () => {
    expect(() => loader().providerModule("src/provider/native/nativeProvider.ts")).toThrow(
      "the provider's script has no source",
    );
  });
});

describe("providerRequire", () => {
  it("Node's module by either name → Node's; a start's module it was not given, or a package → not found", () => {
    const script = loader();
    expect(script.providerRequire("fs")).toBe(process.getBuiltinModule("node:fs"));
    expect(script.providerRequire("node:path")).toBe(process.getBuiltinModule("path"));
    expect(() => script.providerRequire("vmapi-start:src/other.ts")).toThrow(
      "the start's script holds no src/other.ts",
    );
    expect(() => script.providerRequire("@pulumi/pulumi")).toThrow(
      expect.objectContaining({ code: "MODULE_NOT_FOUND", message: "Cannot find module '@pulumi/pulumi'" }),
    );
  });
});

describe("providerScript", () => {
  const text = "(function () { return 41 + 1; })";

  it("a cache of the same text → taken; a cache of other text → rejected, reported, and the script still compiled", () => {
    const cache = new vm.Script(text, { filename: "pulumi-resource-vmapi-provider.js" }).createCachedData();
    const taken = loader();
    taken.useProviderSource(sourceOf(text, cache));
    const onRejected = jest.fn();
    expect(taken.providerScript(onRejected).cachedDataRejected).toBe(false);
    expect(onRejected).not.toHaveBeenCalled();

    // Another text than the first case's (V8 would find that one compiled already and read no cache).
    const other = loader();
    const otherText = "(function () { return 40 + 2; })";
    other.useProviderSource(
      sourceOf(otherText, new vm.Script("(function () { return 1; })").createCachedData()),
    );
    const rejected = jest.fn();
    const script = other.providerScript(rejected);
    expect(rejected).toHaveBeenCalledTimes(1);
    expect((script.runInThisContext() as () => number)()).toBe(42);
    // Compiled once: asked again, the same script, and no second report.
    expect(other.providerScript(rejected)).toBe(script);
    expect(rejected).toHaveBeenCalledTimes(1);
  });

  it("the training run's source → the file's text, no cache", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-provider-script-"));
    try {
      const file = path.join(dir, "provider.js");
      fs.writeFileSync(file, text);
      const source = loader().fileProviderSource(file);
      expect(source.source()).toBe(text);
      expect(source.cachedData()).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
