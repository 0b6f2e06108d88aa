/**
 * The secrets of a resource as its class registers them: the `secretInputs` and `secretOutputs`
 * of the `ResourceShape` constant in its file (resourceClass.ts), read from the source.
 */
import * as ts from "typescript";
import type { SourceProgram } from "./sourceProgram";

/** The secret inputs and outputs a resource's `ResourceShape` names. */
export interface ShapeSecrets {
  secretInputs: string[];
  secretOutputs: string[];
}

/** The `ResourceShape` declared in `file` (`const X: ResourceShape = {...}` or `satisfies`). */
export function readShape(source: SourceProgram, file: string): ShapeSecrets {
  const shapes: ts.ObjectLiteralExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      const literal = shapeLiteral(node);
      if (literal) shapes.push(literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source.sourceFile(file));
  if (shapes.length !== 1) throw new Error(`${file}: ${shapes.length} ResourceShape constants, expected one`);
  return {
    secretInputs: stringList(shapes[0], "secretInputs", file),
    secretOutputs: stringList(shapes[0], "secretOutputs", file),
  };
}

function shapeLiteral(node: ts.VariableDeclaration): ts.ObjectLiteralExpression | undefined {
  let init = node.initializer!;
  let typed = node.type?.getText() === "ResourceShape";
  while (ts.isSatisfiesExpression(init) || ts.isAsExpression(init)) {
    if (!ts.isAsExpression(init) || init.type.getText() !== "const") {
      typed ||= init.type.getText() === "ResourceShape";
    }
    init = init.expression;
  }
  return typed && ts.isObjectLiteralExpression(init) ? init : undefined;
}

function stringList(literal: ts.ObjectLiteralExpression, key: string, file: string): string[] {
  const property = literal.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === key,
  );
  if (!property) return [];
  const value = property.initializer;
  if (!ts.isArrayLiteralExpression(value) || !value.elements.every(ts.isStringLiteral)) {
    throw new Error(`${file}: ${key} must be a list of string literals to be read`);
  }
  return value.elements.map((e) => (e as ts.StringLiteral).text);
}
