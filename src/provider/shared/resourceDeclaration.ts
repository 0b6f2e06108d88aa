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
import type { DerivedFields, FieldsSpec } from "./resourceFields";
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
 * One resource kind, declared once: its kind, descriptions and fields (resourceFields.ts: the zod
 * objects, each field's description and change kind, and what derives from them: `changes`,
 * `keys`, `inputNames`, the secrets, `derived`, `dynamicOnly`, `createOnly`), and where its
 * implementation, models and page are. Its class is `dynamic/<kind, first letter lower>.ts`,
 * generated from it.
 */
export interface ResourceDeclaration extends FieldsSpec, DerivedFields<FieldsSpec> {
  /**
   * Its implementation, loaded on first use: `() => require("./xProvider").xProvider`, so a call
   * of another kind never loads it (implementations.ts says why).
   */
  readonly load: () => ResourceImplementation<EngineProps, EngineProps>;
  /** Whether it is auto-named (naming.ts): a name left out is made from the resource's name. */
  readonly autoNamed?: boolean;
  /**
   * The provider's types of its inputs and outputs, typed from zod: a number the class declares
   * as `pulumi.Input<number>` is whole when the zod field behind the same-named property of these
   * says `.int()` (tools/schema/numberKinds.ts).
   */
  readonly models: readonly ModelType[];
  /** Its reference page, relative to the repository (`docs/resources/machine.md`). */
  readonly page: string;
}
