/**
 * The reference tables, rendered from the schema: a resource's inputs (type with enum values
 * spelled out, required, default, how a change is applied, description) and outputs (type,
 * description, secret), a data source's arguments and result, and every object type they reach.
 */
import type { DiffAction } from "../../src/provider/shared/diffTable";
import {
  isEnumType,
  type FunctionSpec,
  type ObjectTypeSpec,
  type PackageSpec,
  type PropertySpec,
  type ResourceSpec,
  type TypeSpec,
} from "./packageSpec";

/** How each kind of change reads in the Change column. */
const CHANGE_TEXT: Record<DiffAction, string> = {
  update: "updates in place",
  power: "updates in place (start/stop)",
  replace: "replaces",
  none: "stored (no API call)",
};

/** The note each generated block starts with. */
export const GENERATED_NOTE =
  "<!-- Generated from plugin/schema.json by `npm run schema:update`: edit the TSDoc in src/, not this table. -->";

/** A resource's inputs table. `changes` says how a change to each input is applied. */
export function inputsTable(
  resource: ResourceSpec,
  changes: Record<string, DiffAction>,
  schema: PackageSpec,
): string {
  const rows = Object.entries(resource.inputProperties).map(([name, property]) => [
    code(name),
    typeText(property, schema),
    resource.requiredInputs?.includes(name) ? "yes" : "no",
    property.default === undefined ? "" : code(JSON.stringify(property.default)),
    changes[name] ? CHANGE_TEXT[changes[name]] : property.replaceOnChanges ? "replaces" : "updates in place",
    cell(property.description),
  ]);
  return table(["Name", "Type", "Required", "Default", "Change", "Description"], rows);
}

/** A resource's outputs table, then the object types its inputs and outputs reach. */
export function outputsTable(resource: ResourceSpec, schema: PackageSpec): string {
  const rows = Object.entries(resource.properties).map(([name, property]) => [
    code(name),
    typeText(property, schema),
    cell(property.description),
    property.secret ? "yes" : "",
  ]);
  const reached = reachedTypes(
    [...Object.values(resource.inputProperties), ...Object.values(resource.properties)],
    schema,
  );
  return [table(["Name", "Type", "Description", "Secret"], rows), ...typeTables(reached, schema)].join(
    "\n\n",
  );
}

/** A data source's block: its description, its arguments, its result, and the types they reach. */
export function functionBlock(fn: FunctionSpec, schema: PackageSpec): string {
  const inputs = Object.entries(fn.inputs.properties).map(([name, property]) => [
    code(name),
    typeText(property, schema),
    fn.inputs.required?.includes(name) ? "yes" : "no",
    property.default === undefined ? "" : code(JSON.stringify(property.default)),
    cell(property.description),
  ]);
  const outputs = Object.entries(fn.outputs.properties).map(([name, property]) => [
    code(name),
    typeText(property, schema),
    cell(property.description),
    property.secret ? "yes" : "",
  ]);
  const reached = reachedTypes(
    [...Object.values(fn.inputs.properties), ...Object.values(fn.outputs.properties)],
    schema,
  );
  return [
    fn.description,
    "**Arguments**",
    inputs.length > 0 ? table(["Name", "Type", "Required", "Default", "Description"], inputs) : "None.",
    "**Result**",
    table(["Name", "Type", "Description", "Secret"], outputs),
    ...typeTables(reached, schema),
  ].join("\n\n");
}

/** One table per object type: a heading (the anchor `typeText` links to), its description, its fields. */
function typeTables(names: string[], schema: PackageSpec): string[] {
  return names.map((name) => {
    const type = schema.types[`vmapi:index:${name}`] as ObjectTypeSpec;
    const rows = Object.entries(type.properties).map(([field, property]) => [
      code(field),
      typeText(property, schema),
      type.required?.includes(field) ? "yes" : "no",
      cell(property.description),
    ]);
    const parts = [
      `### ${name}`,
      type.description ?? "",
      table(["Name", "Type", "Always set", "Description"], rows),
    ];
    return parts.filter((part) => part !== "").join("\n\n");
  });
}

/** The object types `properties` reach, directly or through other object types, sorted. */
function reachedTypes(properties: readonly PropertySpec[], schema: PackageSpec): string[] {
  const found = new Set<string>();
  const visit = (type: TypeSpec): void => {
    if ("items" in type) return visit(type.items);
    if (!("$ref" in type) || type.$ref === ANY) return;
    const name = refName(type.$ref);
    const spec = schema.types[`vmapi:index:${name}`];
    if (isEnumType(spec) || found.has(name)) return;
    found.add(name);
    Object.values(spec.properties).forEach(visit);
  };
  properties.forEach(visit);
  return [...found].sort();
}

/** A property's type as the tables show it: enum values spelled out, object types linked. */
export function typeText(type: TypeSpec, schema: PackageSpec): string {
  if ("items" in type) return `${typeText(type.items, schema)}[]`;
  if ("$ref" in type) {
    if (type.$ref === ANY) return "any";
    const name = refName(type.$ref);
    const spec = schema.types[`vmapi:index:${name}`];
    if (isEnumType(spec)) return `${name}: ${spec.enum.map((e) => code(e.value)).join(", ")}`;
    return `[${name}](#${name.toLowerCase()})`;
  }
  return type.type;
}

/** The schema's own type of any value. */
const ANY = "pulumi.json#/Any";

function refName(ref: string): string {
  return ref.replace(/^#\/types\/vmapi:index:/, "");
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Text in a table cell: pipes escaped, paragraphs kept apart. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n\n/g, "<br><br>").replace(/\n/g, " ");
}

function code(text: string): string {
  return `\`${text.replace(/\|/g, "\\|")}\``;
}
