/**
 * A data source's part of the schema: its arguments (a filter on a record's field described by
 * the field), its result, secret when its declaration says so, and its declaration's words.
 */
import type * as ts from "typescript";
import type { FunctionSpec } from "./packageSpec";
import { normalizeDoc, type SourceProgram } from "./sourceProgram";
import type { FunctionSource } from "./sources";
import { pascal, type TypeRegistry } from "./typeRegistry";

/** A data source's spec: its `Get<Name>Args` as inputs, its `Get<Name>Result` as outputs. */
export function buildFunction(
  source: SourceProgram,
  registry: TypeRegistry,
  fn: FunctionSource,
): FunctionSpec {
  const owner = pascal(fn.name);
  const argsName = `${owner}Args`;
  const args = source.declaredType(fn.types, argsName);
  const argsDecl = source.exported(fn.types, argsName).declarations?.[0];
  const inputs = registry.properties(args, { owner, property: "", models: fn.declaration.models });
  for (const symbol of source.checker.getPropertiesOfType(args)) {
    const property = inputs.properties[symbol.name];
    Object.assign(property, source.defaultOf(symbol));
    // A filter on a record's field is described by the field; say what it does with it.
    const declaredHere = symbol.valueDeclaration && isWithin(symbol.valueDeclaration, argsDecl);
    if (!declaredHere)
      property.description = `Only those whose \`${symbol.name}\` equals this. ${property.description}`;
  }
  const outputs = registry.properties(source.declaredType(fn.types, `${owner}Result`), {
    owner,
    property: "",
  });
  if (fn.declaration.secret) {
    for (const property of Object.values(outputs.properties)) property.secret = true;
  }
  // Filters come in the checker's order of their keys, which means nothing: list them by name.
  const sorted = Object.fromEntries(Object.entries(inputs.properties).sort(([a], [b]) => a.localeCompare(b)));
  const description = normalizeDoc(fn.declaration.description);
  if (description === "") registry.undocumented.push(`${fn.name} (its declaration's description)`);
  return {
    description,
    inputs: { type: "object", properties: sorted, ...nonEmpty("required", inputs.required) },
    outputs: { type: "object", properties: outputs.properties, ...nonEmpty("required", outputs.required) },
  };
}

function isWithin(node: ts.Node, ancestor: ts.Node | undefined): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) if (at === ancestor) return true;
  return false;
}

function nonEmpty<K extends string>(key: K, list: string[]): Partial<Record<K, string[]>> {
  return list.length > 0 ? ({ [key]: list } as Record<K, string[]>) : {};
}
