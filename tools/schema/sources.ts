/**
 * What the schema is read from: the resources as their folders declare them (declarations.ts)
 * with their classes and argument interfaces, the data sources as functions/dataSources.ts
 * declares them with their `GetXArgs`/`GetXResult`, the provider's settings, the enums, and the
 * package's metadata. Everything else (names, types, TSDoc, defaults) is read from those
 * declarations.
 */
import { DATA_SOURCES, type DataSourceDeclaration } from "../../src/provider/functions/dataSources";
import type { ResourceDeclaration } from "../../src/provider/shared/resourceDeclaration";
import { declaredResources } from "./declarations";

/** One resource: its declaration, and where its declaration and its class are. */
export interface ResourceSource extends ResourceDeclaration {
  /** Its declaration's file (`src/provider/machine/machineResource.ts`). */
  declaredIn: string;
  /** The file with the class, its `<kind>Args` interface (`src/provider/dynamic/machine.ts`). */
  file: string;
}

/** The resources, by kind: every declaration under src/provider. */
export const RESOURCES: readonly ResourceSource[] = declaredResources().map((found) => ({
  ...found.declaration,
  declaredIn: found.file,
  file: found.classFile,
}));

/** One data source: its name and declaration; its arguments and result are named after it. */
export interface FunctionSource {
  name: string;
  /** The file of its `Get<Name>Args` and `Get<Name>Result`, and of its declaration. */
  types: string;
  declaration: DataSourceDeclaration<unknown, unknown>;
}

/** Where every data source is declared, with its arguments and result. */
export const DATA_SOURCE_FILE = "src/provider/functions/dataSources.ts";

/** The data sources, by name, each with `Get<Name>Args` and `Get<Name>Result`. */
export const FUNCTIONS: readonly FunctionSource[] = Object.entries(DATA_SOURCES)
  .map(([name, declaration]) => ({
    name,
    types: DATA_SOURCE_FILE,
    declaration: declaration as DataSourceDeclaration<unknown, unknown>,
  }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** Where the schema is written. */
export const SCHEMA_FILE = "plugin/schema.json";

/** The data sources' reference page. */
export const FUNCTIONS_PAGE = "docs/data-sources.md";

/**
 * Inputs and outputs of the dynamic door that the plugin does not have: `account` (several
 * accounts are several `pulumi:providers:vmapi` resources there) and the engine's `__` keys.
 */
export function nativeOmits(name: string): boolean {
  return name === "account" || name.startsWith("__");
}

/** Files whose exported string-literal type aliases are the enums (`Region`, `PowerState`, ...). */
export const ENUM_FILES = ["src/contract/constants.ts", "src/provider/machine/machineModel.ts"];

/**
 * The provider's settings: names, types and TSDoc are `CheckedSettings`' (settings.ts), defaults
 * what `checkSettings` gives when a setting is left out; the variables each falls back to and
 * whether it is secret are stated here (a unit test holds the variables to `checkSettings`).
 */
export const PROVIDER_SETTINGS = {
  file: "src/provider/account/settings.ts",
  type: "CheckedSettings",
  settings: {
    apiKey: { secret: true, environment: ["VMAPI_API_KEY", "PAPERSPACE_API_KEY"] },
    baseUrl: { secret: false, environment: ["VMAPI_BASE_URL", "PAPERSPACE_API_HOST"] },
    pollScale: { secret: false, environment: ["VMAPI_POLL_SCALE"] },
  },
  models: [{ file: "src/provider/account/settings.ts", type: "SettingRules" }],
} as const;

/** The Go module the Go SDK is published as; the repository is its first three parts. */
export const GO_IMPORT_BASE_PATH = "github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi";

/** The package's own words (the rest of its metadata comes from package.json). */
export const PACKAGE_TEXT = {
  name: "vmapi",
  displayName: "VM API",
  description:
    "Machines, startup scripts, resource delegations and machine access of the VM machine API, with data sources for users, networks, templates, machines, scripts and utilization.",
  keywords: ["pulumi", "vmapi", "category/cloud", "kind/native"],
  publisher: "pulumi-vmapi",
  provider:
    "The provider type for the vmapi package: one account of the VM API. Several accounts are several providers, each with its own `apiKey` (and `baseUrl`), passed to resources with the `provider` option.",
} as const;
