/**
 * The package schema, built from the sources sources.ts names: each resource's inputs from its
 * `<Kind>Args` interface and outputs from its class's declared `pulumi.Output` members, each data
 * source's from its `Get<Name>Args` and `Get<Name>Result`, the provider's settings from
 * `CheckedSettings`, and every description from TSDoc (a data source's from its declaration).
 */
import type { DiffAction } from "../../src/provider/shared/diffTable";
import { EnumCatalogue } from "./enumCatalogue";
import { buildFunction } from "./functionSpecs";
import { NumberKinds } from "./numberKinds";
import { languages, packageMetadata, providerSettings } from "./packageParts";
import type { FunctionSpec, PackageSpec, ResourceSpec } from "./packageSpec";
import { buildResource } from "./resourceSpecs";
import { SourceProgram } from "./sourceProgram";
import { ENUM_FILES, FUNCTIONS, PACKAGE_TEXT, PROVIDER_SETTINGS, RESOURCES } from "./sources";
import { TypeRegistry, token } from "./typeRegistry";

/** The schema, and how a change to each resource input is applied (for the reference tables). */
export interface BuiltSchema {
  schema: PackageSpec;
  /** By resource token, then input name. */
  changes: Record<string, Record<string, DiffAction>>;
}

/**
 * Reads the sources and builds the schema; `overlay` holds files generated in the same run (the
 * classes, resourceClasses.ts), read as they will be written.
 */
export function buildSchema(overlay: ReadonlyMap<string, string> = new Map()): BuiltSchema {
  const files = [
    ...RESOURCES.flatMap((r) => [r.file, ...r.models.map((m) => m.file)]),
    ...FUNCTIONS.map((f) => f.types),
    PROVIDER_SETTINGS.file,
  ];
  const source = new SourceProgram([...new Set([...files, ...ENUM_FILES])], overlay);
  const registry = new TypeRegistry(
    source,
    new EnumCatalogue(source, ENUM_FILES),
    new NumberKinds(source),
    new Set(RESOURCES.map((r) => r.kind)),
  );
  const resources: Record<string, ResourceSpec> = {};
  const changes: BuiltSchema["changes"] = {};
  for (const resource of RESOURCES) {
    const built = buildResource(source, registry, resource);
    resources[token(resource.kind)] = built.spec;
    changes[token(resource.kind)] = built.changes;
  }
  const functions: Record<string, FunctionSpec> = {};
  for (const fn of FUNCTIONS) functions[token(fn.name)] = buildFunction(source, registry, fn);
  const settings = providerSettings(source, registry);
  if (registry.undocumented.length > 0) {
    throw new Error(`without TSDoc (describe them in the source):\n  ${registry.undocumented.join("\n  ")}`);
  }
  const metadata = packageMetadata();
  const schema: PackageSpec = {
    ...metadata,
    config: { variables: settings },
    provider: { description: PACKAGE_TEXT.provider, inputProperties: settings },
    resources,
    functions,
    types: Object.fromEntries([...registry.types].map(([name, spec]) => [token(name), spec])),
    language: languages(metadata.version),
  };
  return { schema, changes };
}
