/**
 * What the five resource classes share, written once: the type token the engine knows each by,
 * `isInstance` across copies of this package, and how a class registers (every declared key,
 * auto-naming, secret inputs, the option inputs, secret outputs, quiet stacks), in one base class,
 * `VmApiResource`. Each class (generated from its declaration by `npm run schema:update`,
 * tools/schema/resourceClasses.ts) adds its declared outputs and its `get` (their signatures and
 * TSDoc are the public surface), each a line over these; the keys it registers are its
 * declaration's (`keys`).
 */
import * as pulumi from "@pulumi/pulumi";
import { dynamicType } from "../../contract/typeTokens";
import { namingInputs } from "./namingInputs";
import { optionInputs } from "./resourceOptions";
import { providerModule, type ResourceKind } from "./providerModule";

/** The type the engine knows a resource of `kind` by (its URN's type). */
export function typeToken<K extends ResourceKind>(kind: K): `pulumi-nodejs:dynamic/vmapi:${K}` {
  return dynamicType(kind);
}

/** True when `obj` is a resource of type `token`, also one made by another copy of this package. */
export function isResourceOfType(obj: unknown, token: string): boolean {
  return (obj as { __pulumiType?: unknown } | null | undefined)?.__pulumiType === token;
}

/**
 * A string the API reports: one of the known values, or another the API may add (the wire
 * schema accepts any string there). `(string & {})` keeps editors suggesting the known ones.
 */
export type ReportedString<Known extends string> = Known | (string & {});

/** How one resource kind registers. */
export interface ResourceShape {
  /** Which implementation the plugin dispatches its calls to; also its type token's last part. */
  kind: ResourceKind;
  /** Every key it declares (outputs, and inputs it stores): the SDK resolves only those. */
  keys: readonly string[];
  /** Whether it is auto-named (naming.ts): a name left out is made from the resource's name. */
  autoNamed?: boolean;
  /** Inputs that are secret even when given as plain values. */
  secretInputs?: readonly string[];
  /** Outputs the engine keeps secret. */
  secretOutputs?: readonly string[];
}

/** A registration ready for `super(...args)`; `done()` in a `finally` right after it. */
export interface Registration {
  args: [type: string, name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions | undefined];
  done(): void;
}

/**
 * What a class's constructor hands `pulumi.CustomResource`: the type token of a dynamic resource,
 * the props (a fresh object each time, as the SDK's constructor mutates it) with the provider
 * module of `shape`'s kind as `__provider` (providerModule.ts), and options of `shape`, with stack traces
 * turned off until `done()` (`quietStacks`). This is what `pulumi.dynamic.Resource` does, but
 * for the provider text: it would serialize a provider object; ours is written once (providerModule.ts).
 */
export function registration(
  shape: ResourceShape,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): Registration {
  const naming = shape.autoNamed ? namingInputs(name, typeToken(shape.kind), opts) : {};
  const props = registeredProps(shape.keys, { ...args, ...naming });
  for (const key of shape.secretInputs ?? []) {
    const value = (args as Record<string, unknown>)[key];
    if (value !== undefined) props[key] = pulumi.secret(value);
  }
  Object.assign(props, optionInputs(props, opts));
  const secretOutputs = shape.secretOutputs ?? [];
  const options =
    secretOutputs.length > 0
      ? pulumi.mergeOptions(opts, { additionalSecretOutputs: [...secretOutputs] })
      : opts;
  props.__provider = providerModule(shape.kind);
  const done = quietStacks();
  return { args: [typeToken(shape.kind), name, props, options], done };
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

/**
 * The base of the five resource classes: registers the resource as its `shape` says, with stack
 * traces off while the SDK's constructor runs. A class adds its declared outputs and its `get`
 * (their signatures and TSDoc are its public surface); `isInstance` is this one's.
 */
export abstract class VmApiResource extends pulumi.CustomResource {
  /**
   * True when `obj` is a resource of the class it is called on (`Machine.isInstance(x)`), also one
   * made by another copy of this package: it compares the engine's type token, not the prototype.
   */
  static override isInstance<R extends VmApiResource>(
    this: { readonly __pulumiType: string; readonly prototype: R },
    obj: unknown,
  ): obj is R {
    return isResourceOfType(obj, this.__pulumiType);
  }

  protected constructor(
    shape: ResourceShape,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    const registered = registration(shape, name, args, opts);
    try {
      super(...registered.args);
    } finally {
      registered.done();
    }
  }
}
