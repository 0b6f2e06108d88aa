/**
 * The object that `pulumi.dynamic.Resource` serializes into `__provider`.
 *
 * Everything a serialized closure references is captured by value and lands in state
 * (PULUMI-NOTES.md), so this stub holds only two strings and forwards every call to the
 * provider runtime, which the plugin process `require`s at call time. Consequences:
 * - no credential, schema or client is ever in state: `configure` keeps the settings on the
 *   deserialized stub, in the plugin's memory only;
 * - the text is small and stable, so `refresh`/`destroy` with state from an earlier version
 *   still work: the runtime's `dispatch(kind, method, args, settings)` signature never changes.
 */
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";

/** Which resource implementation the runtime dispatches to. */
export type ResourceKind = "Machine" | "Script" | "ResourceDelegation" | "MachineAccess";

/** Where the plugin process finds the runtime: by package name first (stable across machines). */
export interface RuntimeLocation {
  packagePath: string;
  absolutePath: string;
}

/** The runtime next to this file; from sources (ts-node, ts-jest) it is the compiled copy in dist/. */
export function runtimeLocation(): RuntimeLocation {
  const fromSources = __filename.endsWith(".ts");
  const absolutePath = fromSources
    ? path.resolve(__dirname, "..", "..", "dist", "provider", "runtime.js")
    : path.join(__dirname, "runtime.js");
  return { packagePath: "pulumi-vmapi/dist/provider/runtime.js", absolutePath };
}

/** Builds the serializable provider for one resource kind. */
export function providerStub(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const entry = runtimeLocation();
  return {
    async configure(req) {
      (this as { settings?: unknown }).settings = {
        apiKey: req.config.get("vmapi:apiKey"),
        baseUrl: req.config.get("vmapi:baseUrl"),
        pollScale: req.config.get("vmapi:pollScale"),
      };
    },
    check(olds, news) {
      return loadRuntime(entry).dispatch(kind, "check", [olds, news], settingsOf(this));
    },
    diff(id, olds, news) {
      return loadRuntime(entry).dispatch(kind, "diff", [id, olds, news], settingsOf(this));
    },
    create(inputs) {
      return loadRuntime(entry).dispatch(kind, "create", [inputs], settingsOf(this));
    },
    read(id, props) {
      return loadRuntime(entry).dispatch(kind, "read", [id, props], settingsOf(this));
    },
    update(id, olds, news) {
      return loadRuntime(entry).dispatch(kind, "update", [id, olds, news], settingsOf(this));
    },
    delete(id, props) {
      return loadRuntime(entry).dispatch(kind, "delete", [id, props], settingsOf(this));
    },
  };
}

// These two are captured into the closure by value: they must stay free of imports.
function loadRuntime(entry: RuntimeLocation) {
  try {
    return require(require.resolve(entry.packagePath, { paths: [process.cwd()] }));
  } catch {
    return require(entry.absolutePath);
  }
}

function settingsOf(stub: unknown): unknown {
  return (stub as { settings?: unknown }).settings ?? {};
}
