/**
 * A resource's part of the schema: inputs from its `<Kind>Args` interface (secret when its
 * declaration says so, `replaceOnChanges` when its diff table replaces, `default` from
 * `@defaultValue`), outputs from its class's `declare readonly x: pulumi.Output<T>` members.
 */
import * as ts from "typescript";
import type { DiffAction } from "../../src/provider/shared/diffTable";
import type { PropertySpec, ResourceSpec } from "./packageSpec";
import type { SourceProgram } from "./sourceProgram";
import { nativeOmits, type ResourceSource } from "./sources";
import type { TypeRegistry } from "./typeRegistry";

/** A resource's spec, and how a change to each of its inputs is applied. */
export function buildResource(
  source: SourceProgram,
  registry: TypeRegistry,
  resource: ResourceSource,
): { spec: ResourceSpec; changes: Record<string, DiffAction> } {
  const inputs = resourceInputs(source, registry, resource);
  const outputs = resourceOutputs(source, registry, resource);
  const spec: ResourceSpec = {
    description: registry.describe(source.exported(resource.file, resource.kind), resource.kind),
    properties: outputs.properties,
    required: outputs.required.sort(),
    inputProperties: inputs.properties,
    requiredInputs: inputs.required.sort(),
  };
  return { spec, changes: inputs.changes };
}

/** The inputs: the `<Kind>Args` interface's properties, less those of the dynamic door alone. */
function resourceInputs(source: SourceProgram, registry: TypeRegistry, resource: ResourceSource) {
  const site = { owner: resource.kind, property: "", models: resource.models };
  const inputProperties: Record<string, PropertySpec> = {};
  const requiredInputs: string[] = [];
  const changes: Record<string, DiffAction> = {};
  const args = source.declaredType(resource.file, `${resource.kind}Args`);
  for (const symbol of source.checker.getPropertiesOfType(args)) {
    const name = symbol.name;
    if (nativeOmits(name) || resource.dynamicOnly?.includes(name)) continue;
    const mapped = registry.map(source.writtenType(symbol), { ...site, property: name, symbol });
    const change = changeOf(resource, name);
    changes[name] = change;
    inputProperties[name] = {
      ...mapped.spec,
      description: registry.describe(symbol, `${resource.kind}Args.${name}`),
      ...(resource.secretInputs?.includes(name) ? { secret: true } : {}),
      ...(change === "replace" ? { replaceOnChanges: true } : {}),
      ...source.defaultOf(symbol),
    };
    const optional = symbol.flags & ts.SymbolFlags.Optional || resource.createOnly?.includes(name);
    if (!optional) requiredInputs.push(name);
  }
  return { properties: inputProperties, required: requiredInputs, changes };
}

/** The outputs: the class's declared `pulumi.Output` members; required unless they admit null. */
function resourceOutputs(source: SourceProgram, registry: TypeRegistry, resource: ResourceSource) {
  const site = { owner: resource.kind, property: "", models: resource.models };
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const symbol of declaredOutputs(source, resource)) {
    const name = symbol.name;
    const mapped = registry.map(source.writtenType(symbol), { ...site, property: name, symbol });
    properties[name] = {
      ...mapped.spec,
      description: registry.describe(symbol, `${resource.kind}.${name}`),
      ...(resource.secretOutputs?.includes(name) ? { secret: true } : {}),
    };
    if (!mapped.nullable) required.push(name);
  }
  return { properties, required };
}

/** How a change to input `name` is applied: its row, or the row of what it is computed into. */
function changeOf(resource: ResourceSource, name: string): DiffAction {
  const own = resource.changes[name];
  if (own) return own;
  const into = Object.entries(resource.derived ?? {}).find(([, from]) => from.includes(name));
  if (into && resource.changes[into[0]]) return resource.changes[into[0]];
  throw new Error(`${resource.kind}.${name}: an input without a row in the diff table`);
}

/** The `declare readonly x: pulumi.Output<T>` members of the resource's class. */
function declaredOutputs(source: SourceProgram, resource: ResourceSource): ts.Symbol[] {
  const type = source.declaredType(resource.file, resource.kind);
  return source.checker.getPropertiesOfType(type).filter((symbol) => {
    const decl = symbol.valueDeclaration;
    return (
      decl !== undefined &&
      ts.isPropertyDeclaration(decl) &&
      ts.isClassDeclaration(decl.parent) &&
      decl.parent.name?.text === resource.kind &&
      (ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Ambient) !== 0 &&
      !nativeOmits(symbol.name)
    );
  });
}
