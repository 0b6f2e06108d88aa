/**
 * What a resource folder declares once, in its `<kind>Resource.ts` (`machine/machineResource.ts`):
 * everything about the resource that is not its behaviour. Each part has one reader:
 * - the registry (implementations.ts, through the generated resourceDeclarations.ts): `kind` and
 *   `load`;
 * - the TypeScript class (dynamic/, `VmApiResource`): the shape it registers, `keys`,
 *   `autoNamed`, `secretInputs`, `secretOutputs` (a declaration is a `ResourceShape`);
 * - the plugin's schema and the reference page (tools/schema): the secrets again, `changes`,
 *   `derived`, `dynamicOnly`, `createOnly`, `models` and `page`; the names, types and TSDoc of the
 *   inputs and outputs are read from the class and its `<Kind>Args`.
 * Plain data and one closure: importing a declaration loads the resource's model, never its
 * implementation (`load` does, on first use).
 */
import type { DiffTable } from "./diffTable";
import type { EngineProps, ResourceImplementation } from "./resourceImplementation";

/** A type whose properties stand for same-named ones that lead to no zod field themselves. */
export interface ModelType {
  /** The file that exports it, relative to the repository. */
  readonly file: string;
  /** Its exported name. */
  readonly type: string;
}

/** One resource kind, declared once. */
export interface ResourceDeclaration {
  /**
   * The class name, and the last part of both type tokens (`vmapi:index:Machine`,
   * `pulumi-nodejs:dynamic/vmapi:Machine`). Its class is `dynamic/<kind, first letter lower>.ts`.
   */
  readonly kind: string;
  /**
   * Its implementation, loaded on first use: `() => require("./xProvider").xProvider`, so a call
   * of another kind never loads it (implementations.ts says why).
   */
  readonly load: () => ResourceImplementation<EngineProps, EngineProps>;
  /** Every key its class registers (outputs, and inputs it stores): the SDK resolves only those. */
  readonly keys: readonly string[];
  /** Whether it is auto-named (naming.ts): a name left out is made from the resource's name. */
  readonly autoNamed?: boolean;
  /** Inputs that are secret even when given as plain values. */
  readonly secretInputs?: readonly string[];
  /** Outputs the engine keeps secret. */
  readonly secretOutputs?: readonly string[];
  /** Every input and how a change to it is applied (the schema's `replaceOnChanges`, the page's Change column). */
  readonly changes: DiffTable<string>;
  /** Rows of `changes` that the provider computes from other inputs, and those inputs. */
  readonly derived?: Readonly<Record<string, readonly string[]>>;
  /** Inputs of its TypeScript class alone, which the plugin serves another way. */
  readonly dynamicOnly?: readonly string[];
  /**
   * Inputs its TypeScript class requires that the plugin takes as optional: only a create needs
   * them, and the API never reports them, so the program `pulumi import` prints cannot hold them.
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
