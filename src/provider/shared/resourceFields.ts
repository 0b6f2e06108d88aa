/**
 * A resource's fields, written once: two zod objects, its inputs and its outputs, each field with
 * its description and how a change to it applies (`input(...)`, `output(...)` put them in the
 * field's zod metadata). Everything else about the fields is derived here from those objects: the
 * diff table, the keys the TypeScript class registers, the secrets, the inputs only a create needs
 * or only the TypeScript door takes; and by `npm run schema:update` (tools/schema) the class's
 * `<Kind>Args` and declared outputs with their TSDoc (dynamic/<kind>.ts), the plugin's schema, the
 * SDKs and the reference pages' tables.
 */
import { z } from "zod";
import type { DiffAction, DiffTable } from "./diffTable";

/** What an input field says of itself. */
export interface InputMeta {
  /** Its TSDoc: what it is, and in words how a change applies ("Replaces."). */
  readonly description: string;
  /**
   * How a change to it is applied (the diff table's row; the schema's `replaceOnChanges`); left
   * out only by an input a computed row is derived from, whose change applies as that row's.
   */
  readonly change?: DiffAction;
  /**
   * Its TypeScript type inside `pulumi.Input<…>` where the zod schema's own is not what the class
   * says (a named type: `Region`); optional and nullable still come from the schema.
   */
  readonly type?: string;
  /** Its whole TypeScript type, not wrapped in `pulumi.Input` (a function the class calls itself). */
  readonly argType?: string;
  /** Secret even when given as a plain value. */
  readonly secret?: boolean;
  /** The value the provider takes when it is left out (`@defaultValue`, the schema's `default`). */
  readonly default?: string | number | boolean;
  /**
   * Required by the TypeScript class, optional on the plugin: only a create needs it, and the API
   * never reports it, so the program `pulumi import` prints cannot hold it.
   */
  readonly createOnly?: boolean;
  /** Taken by the TypeScript class alone, which applies it itself (the plugin serves it another way). */
  readonly dynamicOnly?: boolean;
}

/** What an output field says of itself. */
export interface OutputMeta {
  /** Its TSDoc. */
  readonly description: string;
  /**
   * Its whole TypeScript type inside `pulumi.Output<…>` (nullable and optional included) where the
   * zod schema's own is not what the class says (a named type: `ReportedString<Region> | null`).
   */
  readonly type?: string;
  /** Kept secret by the engine. */
  readonly secret?: boolean;
  /**
   * A row of the diff table that the provider computes from these inputs (a Script's
   * `contentSha256` from its text): a change of any of them is applied as `change` says.
   */
  readonly derivedFrom?: readonly string[];
  /** How a change of the inputs it is derived from applies. */
  readonly change?: DiffAction;
}

/** `schema` as an input field, with what it says of itself. */
export function input<S extends z.ZodType>(schema: S, meta: InputMeta): S {
  return schema.meta({ ...meta }) as S;
}

/** `schema` as an output field, with what it says of itself. */
export function output<S extends z.ZodType>(schema: S, meta: OutputMeta): S {
  return schema.meta({ ...meta }) as S;
}

/** The metadata `input` or `output` gave a field. */
export function metaOf<M extends InputMeta | OutputMeta>(field: z.ZodType, owner: string): M {
  const meta = z.globalRegistry.get(field) as M | undefined;
  if (meta === undefined || typeof meta.description !== "string")
    throw new Error(`${owner}: a field without input(...) or output(...)`);
  return meta;
}

/** What a resource folder writes of its fields (and of its class: descriptions). */
export interface FieldsSpec {
  /** The class name, and the last part of both type tokens. */
  readonly kind: string;
  /** The class's TSDoc. */
  readonly description: string;
  /** The TSDoc of its `<Kind>Args`. */
  readonly argsDescription: string;
  /** The TSDoc of its static `get`; left out: the class has none. */
  readonly getDescription?: string;
  /** Its inputs, as the program declares them to either door. */
  readonly inputs: z.ZodObject;
  /** Its outputs: those of its inputs it keeps, and what the API or the provider adds. */
  readonly outputs: z.ZodObject;
  /** Outputs that are rows of the diff table, computed from inputs (`output(…, { derivedFrom })`). */
  readonly computed?: z.ZodObject;
  /** Inputs of the TypeScript class alone, which applies them itself (`input(…, { dynamicOnly })`). */
  readonly classInputs?: z.ZodObject;
}

/** The keys of the shape of `S[P]`, a zod object `S` may leave out. */
type ShapeKeys<S, P extends string> = P extends keyof S
  ? S[P] extends z.ZodObject<infer Shape>
    ? Extract<keyof Shape, string>
    : never
  : never;

/** What is derived from a resource's fields. */
export interface DerivedFields<S extends FieldsSpec> {
  /** Every input (and computed row) and how a change to it applies. */
  readonly changes: DiffTable<ShapeKeys<S, "inputs"> | ShapeKeys<S, "computed">>;
  /** Every input the plugin takes, as `replaceOnChanges` may name it: the table's, and what a row is computed from. */
  readonly inputNames: readonly string[];
  /** Every key its class registers: the named account, its outputs and its inputs. */
  readonly keys: readonly string[];
  /** Inputs that are secret even when given as plain values. */
  readonly secretInputs: readonly string[];
  /** Outputs the engine keeps secret. */
  readonly secretOutputs: readonly string[];
  /** Rows of `changes` that the provider computes from other inputs, and those inputs. */
  readonly derived: Readonly<Record<string, readonly string[]>>;
  /** Inputs of its TypeScript class alone, which the plugin serves another way. */
  readonly dynamicOnly: readonly string[];
  /**
   * Inputs its TypeScript class requires that the plugin takes as optional: only a create needs
   * them, and the API never reports them, so the program `pulumi import` prints cannot hold them.
   */
  readonly createOnly: readonly string[];
}

type Entries<M> = Array<readonly [string, M]>;

/** Each field of `object` (of the resource `kind`) with its schema and what it says of itself. */
export function fieldEntries<M extends InputMeta | OutputMeta>(
  kind: string,
  object?: z.ZodObject,
): Array<readonly [name: string, field: z.ZodType, meta: M]> {
  return Object.entries(object?.shape ?? {}).map(([name, field]) => {
    const schema = field as z.ZodType;
    return [name, schema, metaOf<M>(schema, `${kind}.${name}`)] as const;
  });
}

function entriesOf<M extends InputMeta | OutputMeta>(kind: string, object?: z.ZodObject): Entries<M> {
  return fieldEntries<M>(kind, object).map(([name, , meta]) => [name, meta] as const);
}

/** A resource's fields and what derives from them. */
export function fieldsOf<const S extends FieldsSpec>(spec: S): S & DerivedFields<S> {
  const inputs = entriesOf<InputMeta>(spec.kind, spec.inputs);
  const outputs = entriesOf<OutputMeta>(spec.kind, spec.outputs);
  const computed = entriesOf<OutputMeta>(spec.kind, spec.computed);
  const classInputs = entriesOf<InputMeta>(spec.kind, spec.classInputs);
  const names = (entries: Entries<InputMeta | OutputMeta>) => entries.map(([name]) => name);
  const derived = Object.fromEntries(computed.map(([name, meta]) => [name, meta.derivedFrom ?? []]));
  const sources = Object.values(derived).flat();
  const rows = inputs.filter(([name]) => !sources.includes(name));
  for (const [name, meta] of rows)
    if (meta.change === undefined) throw new Error(`${spec.kind}.${name}: an input without its change`);
  return {
    ...spec,
    changes: Object.fromEntries([
      ...rows.map(([name, meta]) => [name, meta.change]),
      ...computed.map(([name, meta]) => [name, meta.change ?? "replace"]),
    ]) as DerivedFields<S>["changes"],
    inputNames: [...new Set([...names(rows), ...names(computed), ...sources])],
    keys: [...new Set(["account", ...names(outputs), ...names(computed), ...names(inputs)])],
    secretInputs: names(inputs.filter(([, meta]) => meta.secret)),
    secretOutputs: names([...outputs, ...computed].filter(([, meta]) => meta.secret)),
    derived,
    dynamicOnly: names(classInputs),
    createOnly: names(inputs.filter(([, meta]) => meta.createOnly)),
  };
}
