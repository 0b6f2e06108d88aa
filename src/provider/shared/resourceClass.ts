/**
 * What the four resource classes share, written once: the type token the engine knows each by,
 * `isInstance` across copies of this package, and how a class registers (every declared key,
 * auto-naming, secret inputs, the option inputs, secret outputs, quiet stacks), in one base class,
 * `VmApiResource`. Each class keeps its own `get`, `isInstance` and declared outputs (their
 * signatures and TSDoc are the public surface), each a line over these; its field list is its
 * model's (`keys`).
 */
import * as pulumi from "@pulumi/pulumi";
import { namingInputs } from "./naming";
import { optionInputs } from "./resourceOptions";
import { providerStub, quietStacks, registeredProps, type ResourceKind } from "./stub";

/** The type the engine knows a resource of `kind` by (its URN's type). */
export function typeToken<K extends ResourceKind>(kind: K): `pulumi-nodejs:dynamic/vmapi:${K}` {
  return `pulumi-nodejs:dynamic/vmapi:${kind}`;
}

/** True when `obj` is a resource of type `token`, also one made by another copy of this package. */
export function isResourceOfType(obj: unknown, token: string): boolean {
  return (obj as { __pulumiType?: unknown } | null | undefined)?.__pulumiType === token;
}

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
  args: ConstructorParameters<typeof pulumi.dynamic.Resource>;
  done(): void;
}

/**
 * What a class's constructor hands `pulumi.dynamic.Resource`: the props (a fresh object each
 * time, as the SDK's constructor mutates it) and options of `shape`, with stack traces turned
 * off until `done()` (stub.ts, `quietStacks`).
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
  const done = quietStacks();
  return { args: [providerStub(shape.kind), name, props, options, "vmapi", shape.kind], done };
}

/**
 * The base of the four resource classes: registers the resource as its `shape` says, with stack
 * traces off while the SDK's constructor runs. A class adds its declared outputs, its `get` and
 * its `isInstance` (their signatures and TSDoc are its public surface).
 */
export abstract class VmApiResource extends pulumi.dynamic.Resource {
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

/** The outputs class `C` declares (its `pulumi.Output` members beyond the SDK's). */
export type DeclaredOutputs<C> = {
  [K in keyof C]: C[K] extends pulumi.Output<unknown> ? K : never;
}[Exclude<keyof C, keyof VmApiResource>];

/**
 * True when class `C` registers (`Keys`) every output it declares, which would otherwise stay
 * undefined in the program; `account` is the runtime's (accounts.ts).
 */
export type RegistersItsOutputs<C, Keys extends string> = [
  Exclude<DeclaredOutputs<C>, Keys | "account">,
] extends [never]
  ? true
  : false;
