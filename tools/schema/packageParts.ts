/**
 * The package's own parts of the schema: its metadata, its languages, and the provider's settings
 * (`CheckedSettings`' properties and TSDoc, with the defaults `checkSettings` gives).
 */
import * as fs from "fs";
import * as path from "path";
import { checkSettings } from "../../src/provider/account/settings";
import type { PackageSpec, PropertySpec } from "./packageSpec";
import { REPO, type SourceProgram } from "./sourceProgram";
import { GO_IMPORT_BASE_PATH, PACKAGE_TEXT, PROVIDER_SETTINGS } from "./sources";
import { pythonReadme } from "./pythonReadme";
import type { TypeRegistry } from "./typeRegistry";

/** The provider's settings: `config.variables` and the provider resource's inputs alike. */
export function providerSettings(
  source: SourceProgram,
  registry: TypeRegistry,
): Record<string, PropertySpec> {
  const type = source.declaredType(PROVIDER_SETTINGS.file, PROVIDER_SETTINGS.type);
  const { properties } = registry.properties(type, {
    owner: PROVIDER_SETTINGS.type,
    property: "",
    models: PROVIDER_SETTINGS.models,
  });
  // What `checkSettings` makes of a config with nothing but a key, in an empty environment: the
  // defaults of every setting but the key, which has none.
  const given = { apiKey: "probe" };
  const defaults = checkSettings(given, {}) as unknown as Record<string, unknown>;
  const settings: Record<string, PropertySpec> = {};
  for (const [name, property] of Object.entries(properties)) {
    const stated = (
      PROVIDER_SETTINGS.settings as Record<string, { secret: boolean; environment: readonly string[] }>
    )[name];
    if (!stated) throw new Error(`${PROVIDER_SETTINGS.type}.${name}: not in PROVIDER_SETTINGS (sources.ts)`);
    settings[name] = {
      ...property,
      ...(name in given ? {} : { default: defaults[name] as string | number }),
      defaultInfo: { environment: [...stated.environment] },
      ...(stated.secret ? { secret: true } : {}),
    };
  }
  return settings;
}

/**
 * Where the engine downloads the plugin when a program needs it and it is not installed: the
 * release assets of tools/plugin/dist.sh on the repository's releases. The engine fills in
 * `${VERSION}` (the plugin's version, no `v`; `${NAME}`, `${OS}` and `${ARCH}` exist too) and
 * appends `/pulumi-resource-vmapi-v<version>-<os>-<arch>.tar.gz`. A user points it at another
 * host with PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES or the `pluginDownloadURL` resource option
 * (docs/plugin.md).
 */
export function pluginDownloadUrl(repository: string): string {
  return `${repository}/releases/download/v\${VERSION}`;
}

/** The package's own fields: its words (sources.ts) and package.json's version and license. */
export function packageMetadata(): Omit<
  PackageSpec,
  "config" | "provider" | "resources" | "functions" | "types" | "language"
> {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
    version: string;
    license: string;
  };
  const repository = `https://${GO_IMPORT_BASE_PATH.split("/").slice(0, 3).join("/")}`;
  return {
    name: PACKAGE_TEXT.name,
    displayName: PACKAGE_TEXT.displayName,
    version: pkg.version,
    description: PACKAGE_TEXT.description,
    keywords: [...PACKAGE_TEXT.keywords],
    homepage: repository,
    license: pkg.license,
    repository,
    publisher: PACKAGE_TEXT.publisher,
    pluginDownloadURL: pluginDownloadUrl(repository),
    meta: { moduleFormat: "(.*)" },
  };
}

/**
 * The lowest Python the SDK claims: the one its tests run on (test/e2e/pythonPackage.test.ts),
 * the only one these machines have (`pulumi` itself needs 3.10).
 */
export const PYTHON_REQUIRES = ">=3.11";

/**
 * The `pulumi` versions the Python SDK works with, tested at both ends
 * (test/e2e/pythonPackage.test.ts). The lowest is the generator's own floor: every resource's
 * generated `exists()` calls `pulumi.runtime.exists_resource`, which 3.269.0 brought (3.268.0 has
 * no such function).
 */
export const PULUMI_PYTHON_RANGE = ">=3.269.0,<4.0.0";

/**
 * The SDK generators' settings for version `version`. `respectSchemaVersion`: each SDK carries
 * the schema's version and asks the engine for that version of the plugin (without it the Go SDK
 * asks for none and the Python one for its package's version, "0.0.0" in the generated
 * pyproject).
 */
export function languages(version: string): PackageSpec["language"] {
  return {
    go: {
      importBasePath: GO_IMPORT_BASE_PATH,
      generateResourceContainerTypes: true,
      respectSchemaVersion: true,
    },
    python: {
      packageName: "pulumi_vmapi",
      respectSchemaVersion: true,
      pythonRequires: PYTHON_REQUIRES,
      requires: { pulumi: PULUMI_PYTHON_RANGE },
      readme: pythonReadme({ version, pythonRequires: PYTHON_REQUIRES, pulumi: PULUMI_PYTHON_RANGE }),
      pyproject: { enabled: true },
    },
  };
}
