/**
 * The object that `pulumi.dynamic.Resource` serializes into `__provider`.
 *
 * Everything a serialized closure references is captured by value and lands in the state of every
 * resource (the SDK stores the serialized provider as its `__provider` input), so this stub
 * captures two strings, the kind and the runtime's package path, and forwards every call to the
 * provider runtime, which the plugin process loads at call time. Consequences:
 * - no credential, schema, client or path of the machine that ran the program is ever in state:
 *   `configure` keeps the settings on the deserialized stub, in the plugin's memory only;
 * - the text is small and stable, so `refresh`/`destroy` with state from an earlier version
 *   still work: the runtime's `dispatch(kind, method, args, settings)` signature never changes
 *   (test/e2e/oldState.test.ts imports state written by 0.1.0);
 * - there is one stub object per kind, so the SDK serializes it once per program (its cache is
 *   keyed by the provider object), not once per resource (docs/benchmarks.md).
 */
import type * as pulumi from "@pulumi/pulumi";

/** Which resource implementation the runtime dispatches to. */
export type ResourceKind = "Machine" | "Script" | "ResourceDelegation" | "MachineAccess";

/**
 * The runtime entry as the plugin process resolves it, by package name from the program's folder:
 * the same on every machine. package.json exports this subpath as a contract with old state.
 */
export const RUNTIME_ENTRY = "pulumi-vmapi/dist/provider/runtime.js";

/** The deserialized stub, in the plugin process: settings from `configure`, the runtime once loaded. */
interface LiveStub {
  settings?: unknown;
  runtime?: { dispatch(kind: string, method: string, args: unknown[], settings: unknown): Promise<never> };
}

const stubs = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/** The serializable provider of one resource kind; the same object for every resource of that kind. */
export function providerStub(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  let stub = stubs.get(kind);
  if (!stub) {
    stub = buildStub(kind, RUNTIME_ENTRY);
    stubs.set(kind, stub);
  }
  return stub;
}

/**
 * Builds the stub. Every method is one short line that hands over to `forward`: the serialized
 * text is what every check and diff of a preview carries, so it is kept small.
 */
function buildStub(kind: ResourceKind, entry: string): pulumi.dynamic.ResourceProvider {
  // Captured by value, so it must stay free of imports; it loads the runtime once per process.
  // Only a missing runtime falls through to the next place; an error inside it is reported as is.
  function forward(self: unknown, method: string, args: unknown[]) {
    const stub = self as LiveStub;
    if (!stub.runtime) {
      const missing = (e: unknown) =>
        (e as { code?: string }).code === "MODULE_NOT_FOUND" && String((e as Error).message).includes(entry);
      for (const load of [
        () => require(require.resolve(entry, { paths: [process.cwd()] })),
        () => require(entry),
      ]) {
        try {
          stub.runtime = load();
          break;
        } catch (e) {
          if (!missing(e)) throw e;
        }
      }
      if (!stub.runtime)
        throw new Error(
          `pulumi-vmapi: cannot find ${entry} from ${process.cwd()}; install the package in the program's project (npm install pulumi-vmapi)`,
        );
    }
    return stub.runtime!.dispatch(kind, method, args, stub.settings ?? {});
  }
  return {
    async configure(req) {
      (this as LiveStub).settings = {
        apiKey: req.config.get("vmapi:apiKey"),
        baseUrl: req.config.get("vmapi:baseUrl"),
        pollScale: req.config.get("vmapi:pollScale"),
        accounts: req.config.get("vmapi:accounts"),
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

/**
 * Turns stack traces off while a resource registers, and returns what turns them back on. The
 * SDK records a stack trace for every property promise it makes in the constructor (used only to
 * report promise leaks); under ts-node each trace is source-mapped frame by frame, which made a
 * preview of 200 Machines take twice as long as 200 no-op resources (docs/benchmarks.md). The
 * resource's own source position is unaffected: the SDK takes it with its own unlimited trace.
 */
export function quietStacks(): () => void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}

/**
 * The props a resource registers: every key it declares (outputs, and inputs it stores), first as
 * undefined, then `args` over them. The SDK resolves only the outputs it was given props for, so
 * a key left out would stay undefined in the program even when the provider returns it (a `get`
 * passes no args at all, and all its outputs come from the read).
 */
export function registeredProps(keys: readonly string[], args: object): Record<string, unknown> {
  const props: Record<string, unknown> = Object.fromEntries(keys.map((key) => [key, undefined]));
  return Object.assign(props, args);
}
