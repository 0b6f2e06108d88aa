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

/** The deserialized stub, in the plugin process: settings from `configure`, the runtime once loaded. */
interface LiveStub {
  settings?: unknown;
  runtime?: { dispatch(kind: string, method: string, args: unknown[], settings: unknown): Promise<never> };
}

/**
 * Builds the serializable provider for one resource kind. Every method is one short line that
 * hands over to `forward`: the serialized text is what every check and diff of a preview
 * carries, so it is kept small (docs/benchmarks.md).
 */
export function providerStub(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const entry = runtimeLocation();
  // Captured by value, so it must stay free of imports; it loads the runtime once per process.
  function forward(self: unknown, method: string, args: unknown[]) {
    const stub = self as LiveStub;
    if (!stub.runtime) {
      try {
        stub.runtime = require(require.resolve(entry.packagePath, { paths: [process.cwd()] }));
      } catch {
        stub.runtime = require(entry.absolutePath);
      }
    }
    return stub.runtime!.dispatch(kind, method, args, stub.settings ?? {});
  }
  return {
    async configure(req) {
      (this as LiveStub).settings = {
        apiKey: req.config.get("vmapi:apiKey"),
        baseUrl: req.config.get("vmapi:baseUrl"),
        pollScale: req.config.get("vmapi:pollScale"),
      };
    },
    check(o, n) {
      return forward(this, "check", [o, n]);
    },
    diff(i, o, n) {
      return forward(this, "diff", [i, o, n]);
    },
    create(n) {
      return forward(this, "create", [n]);
    },
    read(i, p) {
      return forward(this, "read", [i, p]);
    },
    update(i, o, n) {
      return forward(this, "update", [i, o, n]);
    },
    delete(i, p) {
      return forward(this, "delete", [i, p]);
    },
  };
}
