/**
 * What a resource folder declares once, in its `<kind>Resource.ts` (`machine/machineResource.ts`):
 * everything about the resource that is not its behaviour, its fields first (resourceFields.ts).
 * Each part has one reader:
 * - the registry (implementations.ts, through the generated resourceDeclarations.ts): `kind` and
 *   `load`;
 * - the TypeScript class (dynamic/<kind>.ts, generated from the fields and the descriptions by
 *   `npm run schema:update`, over `VmApiResource`): the shape it registers, `keys`, `autoNamed`,
 *   `secretInputs`, `secretOutputs`, `dynamicOnly` (a declaration is a `ResourceShape`);
 * - the serving layer (serving.ts): `kind`, `changes`, `inputNames`;
 * - the plugin's schema and the reference page (tools/schema): the secrets again, `changes`,
 *   `derived`, `dynamicOnly`, `createOnly`, `models` and `page`; the names, types and TSDoc of the
 *   inputs and outputs are read from the generated class and its `<Kind>Args`.
 * Plain data and one closure: importing a declaration loads the resource's model, never its
 * implementation (`load` does, on first use).
 */
import type { z } from "zod";
import type { DiffTable } from "./diffTable";
import type { EngineProps, ResourceImplementation } from "./resourceImplementation";

/**
 * A provider module as a declaration loads it: `name`, an implementation. Typed loosely on
 * purpose: the declaration is what the implementation's types derive from, so naming the module's
 * own type would make the two refer to each other (implementations.test.ts loads every one).
 */
export type Loaded<Name extends string> = Record<Name, ResourceImplementation<EngineProps, EngineProps>>;

/** A type whose properties stand for same-named ones that lead to no zod field themselves. */
export interface ModelType {
  /** The file that exports it, relative to the repository. */
  readonly file: string;
  /** Its exported name. */
  readonly type: string;
}

/**
 * One resource kind, declared once: its fields (resourceFields.ts: the two zod objects, their
 * descriptions and change kinds, and what derives from them) and where its implementation, models
 * and page are.
 */
export interface ResourceDeclaration {
  /**
   * The class name, and the last part of both type tokens (`vmapi:index:Machine`,
   * `pulumi-nodejs:dynamic/vmapi:Machine`). Its class is `dynamic/<kind, first letter lower>.ts`,
   * generated from this declaration.
   */
  readonly kind: string;
  /** The class's TSDoc, its `<Kind>Args`' and its static `get`'s (none: no `get`). */
  readonly description: string;
  readonly argsDescription: string;
  readonly getDescription?: string;
  /** Its fields: inputs, outputs, rows computed from inputs, inputs of its TypeScript class alone. */
  readonly inputs: z.ZodObject;
  readonly outputs: z.ZodObject;
  readonly computed?: z.ZodObject;
  readonly classInputs?: z.ZodObject;
  /**
   * Its implementation, loaded on first use: `() => require("./xProvider").xProvider`, so a call
   * of another kind never loads it (implementations.ts says why).
   */
  readonly load: () => ResourceImplementation<EngineProps, EngineProps>;
  /** Whether it is auto-named (naming.ts): a name left out is made from the resource's name. */
  readonly autoNamed?: boolean;
  /** Derived from the fields (resourceFields.ts `fieldsOf`): every key its class registers. */
  readonly keys: readonly string[];
  /** Derived: every input as `replaceOnChanges` may name it. */
  readonly inputNames: readonly string[];
  /** Derived: inputs that are secret even when given as plain values. */
  readonly secretInputs?: readonly string[];
  /** Derived: outputs the engine keeps secret. */
  readonly secretOutputs?: readonly string[];
  /** Derived: every input and how a change to it is applied (the schema's `replaceOnChanges`, the page's Change column). */
  readonly changes: DiffTable<string>;
  /** Derived: rows of `changes` that the provider computes from other inputs, and those inputs. */
  readonly derived?: Readonly<Record<string, readonly string[]>>;
  /** Derived: inputs of its TypeScript class alone, which the plugin serves another way. */
  readonly dynamicOnly?: readonly string[];
  /**
   * Derived: inputs its TypeScript class requires that the plugin takes as optional: only a create
   * needs them, and the API never reports them, so the program `pulumi import` prints cannot hold them.
   */
  readonly createOnly?: readonly string[];
  /**
   * The provider's types of its inputs and outputs, typed from zod: a number the class declares
   * as `pulumi.Input<number>` is whole when the zod field behind the same-named property of these
   * says `.int()` (tools/schema/numberKinds.ts).
   */
  readonly models: readonly ModelType[];
  /** Its reference page, relative to the repository (`docs/resources/machine.md`). */
  readonly page: string;
}
