/**
 * The serialized provider: what every resource's state holds and every check and diff carries.
 */
import * as pulumi from "@pulumi/pulumi";
import { RUNTIME_ENTRY, providerStub } from "../../../src/provider/shared/stub";

const serialize = async (provider: unknown) =>
  (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: false })).text;

describe("providerStub", () => {
  it("providerStub: two resources of one kind → the same object (the SDK serializes it once)", () => {
    expect(providerStub("Script")).toBe(providerStub("Script"));
    expect(providerStub("Machine")).not.toBe(providerStub("Script"));
  });

  it("serialized stub: the kind and the runtime's package path only, no path of this machine", async () => {
    const text = await serialize(providerStub("Machine"));
    expect(text).toContain(JSON.stringify(RUNTIME_ENTRY));
    expect(text).toContain('"Machine"');
    expect(text).not.toContain(process.cwd());
    expect(text).not.toContain("absolutePath");
    expect(text).not.toMatch(/apiKey\s*:\s*"/);
  });

  it("serialized stub: runtime missing from the program's folder → an error that says what to install", async () => {
    const text = await serialize(providerStub("Script"));
    // Evaluate the stub text as the plugin does, from a folder where the package is not installed.
    const module = { exports: {} as { handler?: () => pulumi.dynamic.ResourceProvider } };
    const paths: string[] = [];
    const isolatedRequire = Object.assign(
      (id: string) => {
        const e = Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
        throw e;
      },
      {
        resolve: (id: string, options?: { paths?: string[] }) => {
          paths.push(...(options?.paths ?? []));
          throw Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
        },
      },
    );
    new Function("exports", "require", "module", text)(module.exports, isolatedRequire, module);
    const stub = module.exports.handler!();
    await expect((async () => stub.check!({}, {}))()).rejects.toThrow(
      /cannot find pulumi-vmapi\/dist\/provider\/runtime\.js .*npm install pulumi-vmapi/,
    );
    expect(paths).toEqual([process.cwd()]);
  });

  it("serialized stub: an error inside the runtime → reported as is, not as a missing module", async () => {
    const text = await serialize(providerStub("Script"));
    const module = { exports: {} as { handler?: () => pulumi.dynamic.ResourceProvider } };
    const broken = Object.assign(
      () => {
        throw Object.assign(new Error("Cannot find module 'zod'"), { code: "MODULE_NOT_FOUND" });
      },
      { resolve: (id: string) => id },
    );
    new Function("exports", "require", "module", text)(module.exports, broken, module);
    await expect((async () => module.exports.handler!().check!({}, {}))()).rejects.toThrow(
      "Cannot find module 'zod'",
    );
  });
});
