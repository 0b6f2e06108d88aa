/**
 * What a resource folder declares once, in its `<kind>Resource.ts` (`machine/machineResource.ts`):
 * everything about the resource that is not its behaviour, its fields first (resourceFields.ts).
 * Each part has one reader:
 * - the registry (implementations.ts, through the generated resourceDeclarations.ts): `kind`;
 * - the TypeScript class (dynamic/<kind>.ts, generated from the fields and the descriptions by
 *   `npm run schema:update`, over `VmApiResource`): the shape it registers, `keys`, `autoNamed`,
 *   `secretInputs`, `secretOutputs`, `dynamicOnly` (a declaration is a `ResourceShape`);
 * - the serving layer (serving.ts): `kind`, `inputNames`;
 * - the plugin's schema and the reference page (tools/schema): the secrets again, `changes`,
 *   `derived`, `dynamicOnly`, `createOnly`, `models` and `page`; the names, types and TSDoc of the
 *   inputs and outputs are read from the generated class and its `<Kind>Args`.
 * Plain data: importing a declaration loads zod and the contract, never the resource's model or
 * implementation.
 */
import type { DerivedFields, FieldsSpec } from "./resourceFields";

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
 * models and page are. Its class is `dynamic/<kind, first letter lower>.ts`, generated from it;
 * its implementation is `<name>Provider`, exported by `<name>Provider.ts` beside it, which the
 * registry's generated index loads on first use (the declaration names it not: the
 * implementation reads the declaration).
 */
export interface ResourceDeclaration extends FieldsSpec, DerivedFields<FieldsSpec> {
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
