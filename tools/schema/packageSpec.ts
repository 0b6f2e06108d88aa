/**
 * The part of the Pulumi package schema this package uses
 * (https://www.pulumi.com/docs/iac/extending-pulumi/schema/; the Go types are
 * `github.com/pulumi/pulumi/pkg/v3/codegen/schema.PackageSpec` and its fields).
 */

/** A property's type: a primitive, an array, or a reference to a type of `types`. */
export type TypeSpec =
  | { type: "string" | "number" | "integer" | "boolean" }
  | { type: "array"; items: TypeSpec }
  | { $ref: string };

/** One property of a resource, function or object type. */
export type PropertySpec = TypeSpec & {
  description: string;
  secret?: true;
  replaceOnChanges?: true;
  default?: string | number | boolean;
  defaultInfo?: { environment: string[] };
};

/** A map of properties with the names of those that must be set. */
export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** One value of an enum type. */
export interface EnumValueSpec {
  name: string;
  value: string;
}

/** A closed set of strings. */
export interface EnumTypeSpec {
  type: "string";
  description: string;
  enum: EnumValueSpec[];
}

/** A resource: its outputs (`properties`) and its inputs. */
export interface ResourceSpec {
  description: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
}

/** A function (an invoke): its arguments and its result. */
export interface FunctionSpec {
  description: string;
  inputs: ObjectTypeSpec;
  outputs: ObjectTypeSpec;
}

/** The whole package. */
export interface PackageSpec {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  homepage: string;
  license: string;
  repository: string;
  publisher: string;
  /** Where the engine downloads the plugin from: a URL template (`${VERSION}`, `${OS}`, `${ARCH}`). */
  pluginDownloadURL: string;
  meta: { moduleFormat: string };
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
  language: Record<string, Record<string, unknown>>;
}

/** True when `type` is an enum type of `types`. */
export function isEnumType(type: ObjectTypeSpec | EnumTypeSpec): type is EnumTypeSpec {
  return "enum" in type;
}
