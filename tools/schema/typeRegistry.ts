/**
 * TypeScript types as schema types. Primitives map to `string`, `integer` or `number` (as the zod
 * field behind the property says: numberKinds.ts) and `boolean`; a closed
 * set of strings to a reference to its enum type (enumCatalogue.ts); a string the API may extend
 * (`ReportedString<Region>`, a union with `string`) to `string`; arrays to arrays; an object to a
 * reference to an object type of `types`, registered here with its properties' TSDoc. `null` and
 * `undefined` make a property optional; `pulumi.Input<T>` and `pulumi.Output<T>` are `T`.
 */
import * as path from "path";
import * as ts from "typescript";
import { pluginToken } from "../../src/contract/typeTokens";
import { EnumCatalogue, enumTypeSpec } from "./enumCatalogue";
import type { ModelType, NumberKinds } from "./numberKinds";
import type { EnumTypeSpec, ObjectTypeSpec, PropertySpec, TypeSpec } from "./packageSpec";
import { REPO, type SourceProgram } from "./sourceProgram";

/** The package's type tokens, `vmapi:index:<Name>`. */
export function token(name: string): string {
  return pluginToken(name);
}

/** A reference to type `name` of `types`. */
export function typeRef(name: string): { $ref: string } {
  return { $ref: `#/types/${token(name)}` };
}

/** Where a type is met: what names an anonymous object type, and what prefixes a taken name. */
export interface TypeSite {
  /** The resource or function (PascalCase) the type is met in, e.g. `GetMachines`. */
  owner: string;
  /** The property that holds it. */
  property: string;
  /** The property's symbol, whose declaration leads to the zod field of a number. */
  symbol?: ts.Symbol;
  /** The owner's models, for a number whose declaration leads to no zod field (numberKinds.ts). */
  models?: readonly ModelType[];
}

/** A TypeScript type as a schema type, and whether it admits null or undefined. */
export interface MappedType {
  spec: TypeSpec;
  nullable: boolean;
}

/** The object and enum types met so far, by name. */
export class TypeRegistry {
  readonly types = new Map<string, ObjectTypeSpec | EnumTypeSpec>();
  /** What was described without TSDoc: where to write it. */
  readonly undocumented: string[] = [];

  /** @param taken names an object type may not have (the resources'): it is prefixed by its owner. */
  constructor(
    private readonly source: SourceProgram,
    private readonly enums: EnumCatalogue,
    private readonly numbers: NumberKinds,
    private readonly taken: ReadonlySet<string>,
  ) {}

  /** The schema type of `type`, met at `site`. */
  map(type: ts.Type, site: TypeSite): MappedType {
    const whole = this.unwrapped(type);
    const members = (whole.isUnion() ? whole.types : [whole]).map((m) => this.unwrapped(m));
    const flat = members.flatMap((m) => (m.isUnion() ? m.types : [m]));
    const present = flat.filter((m) => !(m.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
    const nullable = present.length < flat.length;
    return { spec: this.mapPresent(present, site), nullable };
  }

  /** The properties of object type `type` as schema properties, and those that must be set. */
  properties(
    type: ts.Type,
    site: TypeSite,
  ): { properties: Record<string, PropertySpec>; required: string[] } {
    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const symbol of this.source.checker.getPropertiesOfType(type)) {
      const name = symbol.name;
      const mapped = this.map(this.source.checker.getTypeOfSymbol(symbol), {
        owner: site.owner,
        property: name,
        symbol,
        models: site.models,
      });
      properties[name] = { ...mapped.spec, description: this.describe(symbol, `${site.owner}.${name}`) };
      if (!mapped.nullable && !(symbol.flags & ts.SymbolFlags.Optional)) required.push(name);
    }
    return { properties, required: required.sort() };
  }

  /** The TSDoc of `symbol`; one without any is noted in `undocumented` (buildSchema fails on it). */
  describe(symbol: ts.Symbol, what: string): string {
    const doc = this.source.doc(symbol);
    if (doc === "") this.undocumented.push(`${what} (${declaredAt(symbol)})`);
    return doc;
  }

  private unwrapped(type: ts.Type): ts.Type {
    const alias = type.aliasSymbol;
    if (alias && (alias.name === "Input" || alias.name === "Output") && isPulumiSdk(alias)) {
      return this.unwrapped(type.aliasTypeArguments![0]);
    }
    // `Output<number>` is `OutputInstance<number> & {}`, which the checker keeps without its alias.
    const symbol = type.getSymbol();
    if (symbol?.name === "OutputInstance" && isPulumiSdk(symbol)) {
      return this.unwrapped(this.source.checker.getTypeArguments(type as ts.TypeReference)[0]);
    }
    return type;
  }

  private mapPresent(types: readonly ts.Type[], site: TypeSite): TypeSpec {
    const checker = this.source.checker;
    if (types.length === 0) throw new Error(`${site.owner}.${site.property}: only null or undefined`);
    // Any value at all (a MachineRestart's triggers).
    if (types.some((t) => t.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)))
      return { $ref: "pulumi.json#/Any" };
    if (types.every((t) => t.flags & ts.TypeFlags.BooleanLike)) return { type: "boolean" };
    if (types.every((t) => t.flags & ts.TypeFlags.NumberLike)) return { type: this.numberKind(site) };
    // A string, or known strings and any other (`ReportedString`): the API may send another.
    if (types.some((t) => t.flags & ts.TypeFlags.String || isOpenString(t))) {
      if (types.every((t) => t.flags & ts.TypeFlags.StringLike || isOpenString(t))) return { type: "string" };
    }
    if (types.every((t) => t.isStringLiteral())) {
      return this.enumRef(
        types.map((t) => (t as ts.StringLiteralType).value),
        site,
      );
    }
    if (types.length === 1 && checker.isArrayType(types[0])) {
      const [element] = checker.getTypeArguments(types[0] as ts.TypeReference);
      const item = this.map(element, site);
      if (item.nullable) throw new Error(`${site.owner}.${site.property}: an array of optional items`);
      return { type: "array", items: item.spec };
    }
    if (types.length === 1 && types[0].flags & ts.TypeFlags.Object) return this.objectRef(types[0], site);
    const text = types.map((t) => checker.typeToString(t)).join(" | ");
    throw new Error(`${site.owner}.${site.property}: no schema type for ${text}`);
  }

  private numberKind(site: TypeSite): "integer" | "number" {
    if (!site.symbol) throw new Error(`${site.owner}.${site.property}: a number without its property`);
    return this.numbers.kindOf(site.symbol, site.models ?? [], `${site.owner}.${site.property}`);
  }

  private enumRef(values: string[], site: TypeSite): TypeSpec {
    const entry = this.enums.byValues(values);
    if (!entry) {
      throw new Error(
        `${site.owner}.${site.property}: the strings ${values.join(", ")} are no declared enum: ` +
          `export a type alias of them (src/contract/constants.ts)`,
      );
    }
    this.register(entry.name, enumTypeSpec(entry));
    return typeRef(entry.name);
  }

  private objectRef(type: ts.Type, site: TypeSite): TypeSpec {
    const { name: natural, description } = this.naming(type, site);
    const name = this.taken.has(natural) ? site.owner + natural : natural;
    if (!this.types.has(name)) {
      const { properties, required } = this.properties(type, { owner: name, property: "" });
      const spec: ObjectTypeSpec = { type: "object", description, properties };
      if (required.length > 0) spec.required = required;
      this.register(name, spec);
    }
    return typeRef(name);
  }

  /**
   * An object type's name and description: those of the zod schema whose `z.object({...})`
   * declares its properties (`UserSchema` → `User`, described by `User`'s TSDoc or the schema's),
   * else of the type alias or interface, else of the property holding an inline object
   * (`utilization: z.object(...)` → `Utilization`).
   */
  private naming(type: ts.Type, site: TypeSite): { name: string; description: string } {
    const first = this.source.checker.getPropertiesOfType(type)[0]?.declarations?.[0];
    const literal = first?.parent;
    const call = literal && ts.isObjectLiteralExpression(literal) ? literal.parent : undefined;
    const holder = call && ts.isCallExpression(call) ? call.parent : undefined;
    if (holder && ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) {
      const name = holder.name.text.replace(/Schema$/, "");
      const file = path.relative(REPO, holder.getSourceFile().fileName);
      return { name, description: this.firstDoc(file, [name, holder.name.text]) };
    }
    if (holder && ts.isPropertyAssignment(holder) && ts.isIdentifier(holder.name)) {
      const symbol = this.source.checker.getSymbolAtLocation(holder.name);
      const name = pascal(holder.name.text);
      return { name, description: symbol ? this.describe(symbol, `the type ${name}`) : "" };
    }
    const named = type.aliasSymbol ?? type.getSymbol();
    if (named && isOurs(named) && !named.name.startsWith("__")) {
      return { name: named.name, description: this.describe(named, `the type ${named.name}`) };
    }
    throw new Error(`${site.owner}.${site.property}: an object type without a name (give it a type alias)`);
  }

  /** The TSDoc of the first of `names` exported by `file` that has one. */
  private firstDoc(file: string, names: readonly string[]): string {
    for (const name of names) {
      try {
        const doc = this.source.doc(this.source.exported(file, name));
        if (doc !== "") return doc;
      } catch {
        // Not exported under this name: try the next.
      }
    }
    throw new Error(`${file}: none of ${names.join(", ")} has TSDoc: describe it in the source`);
  }

  private register(name: string, spec: ObjectTypeSpec | EnumTypeSpec): void {
    const known = this.types.get(name);
    if (known && JSON.stringify(known) !== JSON.stringify(spec)) {
      throw new Error(`two different types are named ${name}: rename one in the source`);
    }
    this.types.set(name, spec);
  }
}

/** `name` with its first letter upper-cased. */
export function pascal(name: string): string {
  return name[0].toUpperCase() + name.slice(1);
}

/** `string & {}`: a string that keeps editors suggesting the known ones (`ReportedString`). */
function isOpenString(type: ts.Type): boolean {
  return type.isIntersection() && type.types.some((t) => t.flags & ts.TypeFlags.String);
}

function isPulumiSdk(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => d.getSourceFile().fileName.includes("@pulumi/pulumi"));
}

function isOurs(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) =>
    d.getSourceFile().fileName.startsWith(path.join(REPO, "src")),
  );
}

function declaredAt(symbol: ts.Symbol): string {
  const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (!decl) return "no declaration";
  const source = decl.getSourceFile();
  const { line } = source.getLineAndCharacterOfPosition(decl.getStart());
  return `${path.relative(REPO, source.fileName)}:${line + 1}`;
}
