/**
 * Whether a number property is an `integer` or a `number` in the schema, read from the zod field
 * it is inferred from, never listed by hand: a disk's `size` is `z.number().int()` in the create
 * request, so it is an `int` in the Go and Python SDKs, and a `pollScale` of 0.05 stays a float.
 *
 * The field is found through the property's declaration: a property of a `z.infer` type is
 * declared by its `z.object({...})` field, and `X["field"]` leads to X's. A property declared
 * with a plain `number` (a resource class's `pulumi.Input<number>`) is looked up by name in its
 * owner's models (its declaration's `models`): the provider's types of its inputs and outputs, typed the same way.
 * The field's rule comes from zod itself (`z.toJSONSchema`), so a refinement through a helper
 * (`wholeNumberSetting`) or a preprocess counts as what it produces.
 */
import * as path from "path";
import * as ts from "typescript";
import { z } from "zod";
import { REPO, type SourceProgram } from "./sourceProgram";

import type { ModelType } from "../../src/provider/shared/resourceDeclaration";

export type { ModelType };

/**
 * A zod field a declaration leads to: its file, the variable its `z.object` is the value of (an
 * exported schema, or an object of fields spread into several), and its property path there.
 */
interface FieldRef {
  file: string;
  variable?: string;
  path: string[];
}

/** A number field of an exported zod schema, and whether it is whole. */
interface NumberField {
  schema: string;
  where: string;
  path: string[];
  integer: boolean;
}

/** Reads the kind of number properties from the zod fields behind them. */
export class NumberKinds {
  private readonly byFile = new Map<string, NumberField[]>();

  constructor(private readonly source: SourceProgram) {}

  /**
   * `integer` or `number` for property `symbol` (`what` names it in errors): from the zod fields
   * its declarations lead to, else from the same-named property of the first of `models` that has
   * one. Fails when no zod field is found, or when the fields found disagree.
   */
  kindOf(symbol: ts.Symbol, models: readonly ModelType[], what: string): "integer" | "number" {
    let refs = this.fieldsOf(symbol, new Set());
    for (const model of models) {
      if (refs.length > 0) break;
      const type = this.source.declaredType(model.file, model.type);
      const stand = this.source.checker.getPropertyOfType(type, symbol.name);
      if (stand) refs = this.fieldsOf(stand, new Set());
    }
    if (refs.length === 0) {
      throw new Error(
        `${what}: a number with no zod field behind it; type it from the zod schema that checks it ` +
          `(a z.infer type, or X["field"]), so the schema knows whether it is whole`,
      );
    }
    const fields = refs.flatMap((ref) => this.numberFields(ref, what));
    const kinds = new Set(fields.map((f) => f.integer));
    if (kinds.size > 1) {
      const listed = fields.map((f) => `${f.where} (${f.integer ? "integer" : "number"})`).join(", ");
      throw new Error(`${what}: its zod fields disagree on whether it is whole: ${listed}`);
    }
    return fields[0].integer ? "integer" : "number";
  }

  /** The zod fields `symbol`'s declarations lead to. */
  private fieldsOf(symbol: ts.Symbol, seen: Set<ts.Symbol>): FieldRef[] {
    if (seen.has(symbol)) return [];
    seen.add(symbol);
    const checker = this.source.checker;
    const viaType = (node: ts.TypeNode): FieldRef[] => {
      if (ts.isParenthesizedTypeNode(node)) return viaType(node.type);
      if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) return node.types.flatMap(viaType);
      if (!ts.isIndexedAccessTypeNode(node)) return [];
      const index = node.indexType;
      if (!ts.isLiteralTypeNode(index) || !ts.isStringLiteral(index.literal)) return [];
      const field = checker.getPropertyOfType(
        checker.getTypeFromTypeNode(node.objectType),
        index.literal.text,
      );
      return field ? this.fieldsOf(field, seen) : [];
    };
    return (symbol.declarations ?? []).flatMap((decl): FieldRef[] => {
      if (ts.isPropertyAssignment(decl)) return [fieldRef(decl)];
      const typeNode = (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) && decl.type;
      return typeNode ? viaType(typeNode) : [];
    });
  }

  /**
   * The number fields `ref` stands for: the field at its path in the exported schema it is
   * declared in; for fields declared apart and spread into schemas, every exported schema of the
   * file with a number field at a path ending with its own.
   */
  private numberFields(ref: FieldRef, what: string): NumberField[] {
    const fields = this.fieldsIn(ref.file);
    const declaredIn = fields.filter((field) => field.schema === ref.variable);
    const found =
      declaredIn.length > 0
        ? declaredIn.filter((field) => field.path.join(".") === ref.path.join("."))
        : fields.filter((field) => endsWith(field.path, ref.path));
    if (found.length === 0) {
      throw new Error(
        `${what}: no exported zod schema of ${ref.file} has a number field ${ref.path.join(".")} ` +
          `(export the schema the field is declared in)`,
      );
    }
    return found;
  }

  /** Every number field of every zod schema `file` exports, with its path. */
  private fieldsIn(file: string): NumberField[] {
    const known = this.byFile.get(file);
    if (known) return known;
    const exported = require(path.join(REPO, file)) as Record<string, unknown>;
    const fields: NumberField[] = [];
    for (const [name, value] of Object.entries(exported)) {
      if (!(value instanceof z.ZodType)) continue;
      const json = z.toJSONSchema(value, { io: "output", unrepresentable: "any" });
      const found: Omit<NumberField, "schema">[] = [];
      collectNumbers(json, [], `${file}: ${name}`, found);
      fields.push(...found.map((field) => ({ ...field, schema: name })));
    }
    this.byFile.set(file, fields);
    return fields;
  }
}

/** A JSON Schema node as zod writes one: the parts that hold fields. */
interface JsonNode {
  type?: string | string[];
  properties?: Record<string, JsonNode>;
  anyOf?: JsonNode[];
  oneOf?: JsonNode[];
  allOf?: JsonNode[];
  items?: JsonNode;
}

/** Walks `node`, adding each number or integer it holds (through objects, unions, arrays). */
function collectNumbers(
  node: unknown,
  at: string[],
  where: string,
  into: Omit<NumberField, "schema">[],
): void {
  if (node === null || typeof node !== "object") return;
  const json = node as JsonNode;
  const types = Array.isArray(json.type) ? json.type : json.type ? [json.type] : [];
  if (types.includes("integer") || types.includes("number")) {
    into.push({ where: `${where}.${at.join(".")}`, path: at, integer: !types.includes("number") });
  }
  for (const [key, child] of Object.entries(json.properties ?? {}))
    collectNumbers(child, [...at, key], where, into);
  for (const child of [...(json.anyOf ?? []), ...(json.oneOf ?? []), ...(json.allOf ?? [])])
    collectNumbers(child, at, where, into);
  if (json.items) collectNumbers(json.items, at, where, into);
}

/** The field `decl` declares: the names from its variable's value down to it. */
function fieldRef(decl: ts.PropertyAssignment): FieldRef {
  const names: string[] = [];
  let variable: string | undefined;
  for (let node: ts.Node | undefined = decl; node && !ts.isSourceFile(node); node = node.parent) {
    if (ts.isPropertyAssignment(node)) names.unshift(node.name.getText().replace(/^["']|["']$/g, ""));
    if (ts.isVariableDeclaration(node)) {
      variable = node.name.getText();
      break;
    }
  }
  return { file: fileOf(decl), variable, path: names };
}

function endsWith(whole: readonly string[], tail: readonly string[]): boolean {
  if (tail.length > whole.length) return false;
  return tail.every((name, i) => whole[whole.length - tail.length + i] === name);
}

function fileOf(node: ts.Node): string {
  return path.relative(REPO, node.getSourceFile().fileName);
}
