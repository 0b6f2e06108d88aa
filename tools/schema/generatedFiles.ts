/**
 * Every file the schema generator owns, as it should read: the resources' TypeScript classes and
 * their index, `plugin/schema.json` (keys sorted below the top level, where JSON order means
 * nothing; read from those classes), the reference pages, the registry's index of the resource
 * declarations and the data sources' TypeScript functions, each formatted as
 * `npm run lint` wants it (prettier, with the repository's settings).
 */
import * as fs from "fs";
import * as path from "path";
import * as prettier from "prettier";
import { buildSchema, type BuiltSchema } from "./buildSchema";
import type { PackageSpec } from "./packageSpec";
import { DATA_SOURCE_FUNCTIONS_FILE, dataSourceFunctions } from "./dataSourceFunctions";
import { pageText, referencePages } from "./referencePages";
import { RESOURCE_INDEX_FILE, resourceIndex } from "./resourceIndex";
import { declaredResources } from "./declarations";
import { CLASS_INDEX_FILE, classIndex, resourceClass } from "./resourceClasses";
import { REPO } from "./sourceProgram";
import { FUNCTIONS, SCHEMA_FILE } from "./sources";

/** The order of the schema's top-level keys: the package first, as pulumi-random's reads. */
const TOP_LEVEL: readonly (keyof PackageSpec)[] = [
  "name",
  "displayName",
  "version",
  "description",
  "keywords",
  "homepage",
  "license",
  "repository",
  "publisher",
  "pluginDownloadURL",
  "meta",
  "language",
  "config",
  "provider",
  "resources",
  "functions",
  "types",
];

/** The files and their content, by path relative to the repository; and the schema built. */
export async function generatedFiles(): Promise<{ built: BuiltSchema; files: Map<string, string> }> {
  const files = new Map<string, string>();
  const resources = declaredResources();
  for (const resource of resources) {
    files.set(resource.classFile, await formatted(resource.classFile, resourceClass(resource)));
  }
  files.set(CLASS_INDEX_FILE, await formatted(CLASS_INDEX_FILE, classIndex(resources)));
  const built = buildSchema(files);
  files.set(SCHEMA_FILE, await formatted(SCHEMA_FILE, schemaJson(built.schema)));
  for (const page of referencePages(built)) {
    files.set(page.file, await formatted(page.file, pageText(page, read(page.file))));
  }
  files.set(RESOURCE_INDEX_FILE, await formatted(RESOURCE_INDEX_FILE, resourceIndex(declaredResources())));
  const functions = dataSourceFunctions(FUNCTIONS, built.schema);
  files.set(DATA_SOURCE_FUNCTIONS_FILE, await formatted(DATA_SOURCE_FUNCTIONS_FILE, functions));
  return { built, files };
}

/** The schema as JSON: its top-level keys in `TOP_LEVEL` order, every other object's sorted. */
export function schemaJson(schema: PackageSpec): string {
  const missing = Object.keys(schema).filter((key) => !TOP_LEVEL.includes(key as keyof PackageSpec));
  if (missing.length > 0) throw new Error(`schema keys without a place in TOP_LEVEL: ${missing.join(", ")}`);
  const ordered = Object.fromEntries(TOP_LEVEL.map((key) => [key, sortedKeys(schema[key])]));
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** The file's content, or undefined when it does not exist. */
export function read(file: string): string | undefined {
  const full = path.join(REPO, file);
  return fs.existsSync(full) ? fs.readFileSync(full, "utf8") : undefined;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([k, v]) => [k, sortedKeys(v)]));
}

async function formatted(file: string, text: string): Promise<string> {
  const filepath = path.join(REPO, file);
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(text, { ...options, filepath });
}
