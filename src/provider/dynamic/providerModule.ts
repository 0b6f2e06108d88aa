/**
 * The provider module every resource carries: its `__provider` input and output.
 *
 * The dynamic-provider plugin loads a resource's `__provider` text as a module and calls its
 * `handler()` for the provider object (`requireFromString(text).handler()`, once per distinct
 * text per process). `pulumi.dynamic.Resource` would fill it by serializing a provider object
 * with the SDK's closure serializer; this package writes the module itself, because that text
 * rides in every resource's state twice and in every check, diff and read the engine sends:
 * the SDK's serialized seven-method provider object (what 0.1.0 wrote) is 3.7 KB, and a refresh of
 * 200 Machines spends about 0.08 × a no-op refresh converting it (docs/benchmarks.md, benchmark 6).
 *
 * The text finds this package's runtime by name from the program's folder (the plugin's working
 * directory) and asks it for the provider of its kind (`resourceProvider` in runtime.ts), so:
 * - no credential, schema, client or path of the machine that ran the program is ever in state:
 *   `configure` keeps the settings on the provider object, in the plugin's memory only;
 * - it is small and stable, and depends on two names of the runtime that never change:
 *   `resourceProvider(kind)` for this text, `dispatch(kind, method, args, settings)` for the
 *   serialized provider objects in state written by 0.1.0 (test/e2e/oldState.test.ts runs it).
 */

import type { ResourceKind } from "../implementations";

export type { ResourceKind };

/**
 * The runtime entry as the plugin process resolves it, by package name from the program's folder:
 * the same on every machine. package.json exports this subpath as a contract with state.
 */
export const RUNTIME_ENTRY = "pulumi-vmapi/dist/provider/runtime.js";

/**
 * The module text of `kind`'s provider: plain JavaScript that the plugin compiles as it is (only
 * `require` and `process`), on one line, because every byte of it is in every message the engine
 * sends the plugin, whose protobuf decoder allocates about ten times a string's length to read it
 * (docs/benchmarks.md, benchmark 6). It resolves the runtime without loading it, so a failure to
 * resolve means the package is not installed in the program's project, the one error the text
 * reports itself; an error while loading the runtime is reported as it is.
 */
export function providerModule(kind: ResourceKind): string {
  const entry = JSON.stringify(RUNTIME_ENTRY);
  const notInstalled = JSON.stringify("; npm install pulumi-vmapi in the program's project");
  const older = JSON.stringify("pulumi-vmapi: a newer pulumi-vmapi wrote this stack's state; upgrade it");
  return [
    `exports.handler=()=>{`,
    `const e=${entry};let p;`,
    `try{p=require.resolve(e,{paths:[process.cwd()]})}`,
    `catch{throw new Error("pulumi-vmapi: cannot find "+e+" from "+process.cwd()+${notInstalled})}`,
    `const r=require(p);`,
    `if(!r.resourceProvider)throw new Error(${older});`,
    `return r.resourceProvider(${JSON.stringify(kind)})}`,
  ].join("");
}
