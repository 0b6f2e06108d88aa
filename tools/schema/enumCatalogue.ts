/**
 * The closed string sets a property can be typed with, each named by the type alias that declares
 * it (`Region`, `MachineType`, `PowerState`, ...), with its values in declared order and its TSDoc.
 * A property typed with the alias, or with the same set written out (`"user" | "team"`, or the set
 * the wire schema infers from the same constant), becomes a reference to that enum type.
 */
import * as ts from "typescript";
import type { EnumTypeSpec } from "./packageSpec";
import type { SourceProgram } from "./sourceProgram";

/** One closed set: its name, its values in declared order, its description. */
export interface EnumEntry {
  name: string;
  values: string[];
  description: string;
}

/** The enums declared as exported type aliases of string-literal unions in some files. */
export class EnumCatalogue {
  private readonly entries: EnumEntry[] = [];

  constructor(
    private readonly source: SourceProgram,
    files: readonly string[],
  ) {
    for (const file of files) {
      ts.forEachChild(source.sourceFile(file), (node) => {
        if (ts.isTypeAliasDeclaration(node) && isExported(node)) this.consider(file, node);
      });
    }
  }

  /** The enum of exactly these values, or undefined when none was declared. */
  byValues(values: readonly string[]): EnumEntry | undefined {
    const key = [...values].sort().join("\u0000");
    const hits = this.entries.filter((entry) => [...entry.values].sort().join("\u0000") === key);
    if (hits.length > 1) {
      throw new Error(
        `two enums have the values ${values.join(", ")}: ${hits.map((h) => h.name).join(", ")}`,
      );
    }
    return hits[0];
  }

  private consider(file: string, node: ts.TypeAliasDeclaration): void {
    const symbol = this.source.exported(file, node.name.text);
    const values = this.orderedValues(node);
    if (!values) return;
    this.entries.push({ name: node.name.text, values, description: this.source.doc(symbol) });
  }

  /**
   * The values in the order the source declares them: a written-out union in its order, and
   * `(typeof CONSTANT)[number]` in the order of the constant's `as const` array. Undefined when
   * the alias is not a set of strings.
   */
  private orderedValues(node: ts.TypeAliasDeclaration): string[] | undefined {
    const checker = this.source.checker;
    const type = checker.getTypeFromTypeNode(node.type);
    const members = type.isUnion() ? type.types : [type];
    if (!members.every((m) => m.isStringLiteral())) return undefined;
    const declared = members.map((m) => (m as ts.StringLiteralType).value);
    const order = this.declaredOrder(node.type);
    if (!order) return declared.sort();
    if ([...order].sort().join() !== [...declared].sort().join()) {
      throw new Error(`${node.name.text}: cannot read its values in declared order`);
    }
    return order;
  }

  private declaredOrder(node: ts.TypeNode): string[] | undefined {
    const checker = this.source.checker;
    if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return [node.literal.text];
    if (ts.isUnionTypeNode(node)) {
      const parts = node.types.map((t) => this.declaredOrder(t));
      return parts.every((p) => p !== undefined) ? parts.flat() : undefined;
    }
    if (ts.isParenthesizedTypeNode(node)) return this.declaredOrder(node.type);
    if (ts.isIndexedAccessTypeNode(node) && ts.isTypeQueryNode(unparenthesized(node.objectType))) {
      const tuple = checker.getTypeFromTypeNode(unparenthesized(node.objectType));
      if (!checker.isTupleType(tuple)) return undefined;
      const elements = checker.getTypeArguments(tuple as ts.TypeReference);
      if (!elements.every((e) => e.isStringLiteral())) return undefined;
      return elements.map((e) => (e as ts.StringLiteralType).value);
    }
    return undefined;
  }
}

/** The schema's enum type of `entry`: every value with a name the SDK generators can use. */
export function enumTypeSpec(entry: EnumEntry): EnumTypeSpec {
  return {
    type: "string",
    description: entry.description,
    enum: entry.values.map((value) => ({ name: enumMemberName(value), value })),
  };
}

/**
 * A value as an identifier: its words capitalized and joined, `+` spelled `Plus`
 * (`"West Coast (CA1)"` → `WestCoastCA1`, `"GPU+"` → `GPUPlus`, `"hour"` → `Hour`).
 */
export function enumMemberName(value: string): string {
  const words = value
    .replace(/\+/g, " Plus ")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
  if (!/^[A-Za-z]/.test(name)) throw new Error(`enum value ${JSON.stringify(value)} makes no identifier`);
  return name;
}

function unparenthesized(node: ts.TypeNode): ts.TypeNode {
  return ts.isParenthesizedTypeNode(node) ? unparenthesized(node.type) : node;
}

function isExported(node: ts.TypeAliasDeclaration): boolean {
  return ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export ? true : false;
}
