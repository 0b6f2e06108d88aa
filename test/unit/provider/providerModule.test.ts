/**
 * The provider module: what every resource's state holds as `__provider` and every check, diff
 * and read carries. Evaluated here as the plugin evaluates it (a module whose `handler()` gives
 * the provider), with a `require` of the test's choosing.
 */
import type * as pulumi from "@pulumi/pulumi";
import { RUNTIME_ENTRY, providerModule } from "../../../src/provider/dynamic/providerModule";

type Require = ((id: string) => unknown) & {
  resolve: (id: string, options?: { paths?: string[] }) => string;
};

/** `text`'s `handler()`, with `require` standing in for the plugin's. */
function handlerOf(text: string, require: Require): () => pulumi.dynamic.ResourceProvider {
  const module = { exports: {} as { handler?: () => pulumi.dynamic.ResourceProvider } };
  new Function("exports", "require", "module", text)(module.exports, require, module);
  return module.exports.handler!;
}

const notFound = (id: string) =>
  Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });

describe("providerModule", () => {
  it("providerModule: the kind and the runtime's package path only, no path of this machine, no key", () => {
    const text = providerModule("Machine");
    expect(text).toContain(JSON.stringify(RUNTIME_ENTRY));
    expect(text).toContain('resourceProvider("Machine")');
    expect(text).not.toContain(process.cwd());
    expect(text).not.toMatch(/apiKey/);
  });

  it("providerModule: any kind → under 512 bytes, a fraction of the SDK's serialized provider object (3,749 bytes)", () => {
    // Every resource carries it twice in state, and every check, diff and read carries it.
    for (const kind of ["Machine", "Script", "ResourceDelegation", "MachineAccess"] as const)
      expect(Buffer.byteLength(providerModule(kind))).toBeLessThan(512);
  });

  it("handler: the runtime resolved from the program's folder → its provider of the module's kind", () => {
    const paths: string[] = [];
    const runtime = { resourceProvider: (kind: string) => ({ kind }) };
    const require = Object.assign(
      (id: string) => (id === "/program/node_modules/runtime.js" ? runtime : {}),
      {
        resolve: (id: string, options?: { paths?: string[] }) => {
          expect(id).toBe(RUNTIME_ENTRY);
          paths.push(...(options?.paths ?? []));
          return "/program/node_modules/runtime.js";
        },
      },
    );
    expect(handlerOf(providerModule("Script"), require)()).toEqual({ kind: "Script" });
    expect(paths).toEqual([process.cwd()]);
  });

  it("handler: runtime missing from the program's folder → an error that says what to install", () => {
    const require = Object.assign(
      (id: string) => {
        throw notFound(id);
      },
      {
        resolve: (id: string) => {
          throw notFound(id);
        },
      },
    );
    expect(handlerOf(providerModule("Script"), require)).toThrow(
      /cannot find pulumi-vmapi\/dist\/provider\/runtime\.js from .*; npm install pulumi-vmapi in the program's project/,
    );
  });

  it("handler: an error while loading the runtime (a dependency missing) → reported as is, not as a missing package", () => {
    const require = Object.assign(
      () => {
        throw notFound("zod");
      },
      { resolve: (id: string) => id },
    );
    expect(handlerOf(providerModule("Script"), require)).toThrow("Cannot find module 'zod'");
  });

  it("handler: a runtime older than the state's text (no resourceProvider) → an error that says to upgrade", () => {
    const require = Object.assign(() => ({ dispatch: () => undefined }), { resolve: (id: string) => id });
    expect(handlerOf(providerModule("Machine"), require)).toThrow(
      "a newer pulumi-vmapi wrote this stack's state; upgrade it",
    );
  });
});
