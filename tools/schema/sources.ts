/**
 * What the schema is read from: the four resource classes with their argument interfaces and
 * diff tables, the eight data sources with their `GetXArgs`/`GetXResult`, the provider's settings,
 * the enums, and the package's metadata. Everything else (names, types, TSDoc, secrets, defaults)
 * is read from those declarations.
 */
import type { DiffTable } from "../../src/provider/shared/diffTable";
import { MACHINE_DIFF_TABLE } from "../../src/provider/machine/machineDiffTable";
import { SCRIPT_DIFF_TABLE } from "../../src/provider/script/scriptModel";
import type { ModelType } from "./numberKinds";

/** One resource: where its class and arguments are, and how a change to each input is applied. */
export interface ResourceSource {
  /** The class name, the resource's token `vmapi:index:<kind>`. */
  kind: string;
  /** The file with the class, its `<kind>Args` interface and its `ResourceShape`. */
  file: string;
  /** Every input and how a change to it is applied. */
  changes: DiffTable<string>;
  /** Rows of `changes` that the provider computes from other inputs, and those inputs. */
  derived?: Readonly<Record<string, readonly string[]>>;
  /** Its reference page. */
  page: string;
  /** Inputs of its TypeScript class alone, which the plugin serves another way. */
  dynamicOnly?: readonly string[];
  /**
   * Inputs its TypeScript class requires that the plugin takes as optional: only a create needs
   * them, and the API never reports them, so the program `pulumi import` prints cannot hold them.
   */
  createOnly?: readonly string[];
  /**
   * The provider's types of its inputs and outputs, typed from zod: a number the class declares
   * as `pulumi.Input<number>` is whole when the zod field behind the same-named property of these
   * says `.int()` (numberKinds.ts).
   */
  models: readonly ModelType[];
}

/**
 * The resources. ResourceDelegation and MachineAccess have no diff table in their models: their
 * rows here restate their providers' `diff`, and a unit test holds the two together
 * (test/unit/schema/diffTables.test.ts).
 */
export const RESOURCES: readonly ResourceSource[] = [
  {
    kind: "Machine",
    file: "src/provider/dynamic/machine.ts",
    changes: MACHINE_DIFF_TABLE,
    page: "docs/resources/machine.md",
    // The class holds it in a child MachineRestart; in the plugin, declare a MachineRestart.
    dynamicOnly: ["restartTriggers"],
    createOnly: ["templateId"],
    // Its inputs, then the machine the API reports (the outputs that are not inputs: `cpus`).
    models: [
      { file: "src/provider/machine/machineModel.ts", type: "MachineInputs" },
      { file: "src/contract/schemas.ts", type: "Machine" },
    ],
  },
  {
    kind: "Script",
    file: "src/provider/dynamic/script.ts",
    changes: SCRIPT_DIFF_TABLE,
    // `check` hashes the text (or the file's content): an edited text is a new hash.
    derived: { contentSha256: ["scriptText", "scriptFile"] },
    page: "docs/resources/script.md",
    models: [{ file: "src/provider/script/scriptModel.ts", type: "ScriptOutputs" }],
  },
  {
    kind: "ResourceDelegation",
    file: "src/provider/dynamic/resourceDelegation.ts",
    changes: { machineIds: "replace", renewBeforeSeconds: "none" },
    page: "docs/resources/resourceDelegation.md",
    models: [{ file: "src/provider/delegation/resourceDelegationModel.ts", type: "DelegationOutputs" }],
  },
  {
    kind: "MachineAccess",
    file: "src/provider/dynamic/machineAccess.ts",
    changes: { machineId: "replace", userId: "replace" },
    page: "docs/resources/machineAccess.md",
    models: [{ file: "src/provider/access/machineAccessModel.ts", type: "AccessOutputs" }],
  },
  {
    kind: "MachineRestart",
    file: "src/provider/dynamic/machineRestart.ts",
    changes: { machineId: "replace", triggers: "update", state: "update", waitTimeoutSeconds: "none" },
    page: "docs/resources/machineRestart.md",
    models: [{ file: "src/provider/restart/machineRestartModel.ts", type: "RestartOutputs" }],
  },
];

/** One data source: its file; its arguments, result and Output twin are named after it. */
export interface FunctionSource {
  name: string;
  /** The file of the function and its `...Output` twin. */
  file: string;
  /** The file of its `Get<Name>Args` and `Get<Name>Result` (the body both doors run). */
  types: string;
  /** Types standing for arguments that lead to no zod field themselves (numberKinds.ts). */
  models?: readonly ModelType[];
}

/** Where every data source's arguments and result are declared. */
const DATA_SOURCE_TYPES = "src/provider/functions/dataSources.ts";

/** The data sources, each with `Get<Name>Args`, `Get<Name>Result` and `<name>Output`. */
export const FUNCTIONS: readonly FunctionSource[] = [
  { name: "getAvailability", file: "src/provider/functions/machineInfo.ts", types: DATA_SOURCE_TYPES },
  {
    name: "getMachines",
    file: "src/provider/functions/lists.ts",
    types: DATA_SOURCE_TYPES,
    models: [{ file: DATA_SOURCE_TYPES, type: "GetMachinesOptions" }],
  },
  { name: "getNetworks", file: "src/provider/functions/lists.ts", types: DATA_SOURCE_TYPES },
  { name: "getScriptText", file: "src/provider/functions/machineInfo.ts", types: DATA_SOURCE_TYPES },
  { name: "getScripts", file: "src/provider/functions/lists.ts", types: DATA_SOURCE_TYPES },
  { name: "getTemplates", file: "src/provider/functions/lists.ts", types: DATA_SOURCE_TYPES },
  { name: "getUsers", file: "src/provider/functions/lists.ts", types: DATA_SOURCE_TYPES },
  { name: "getUtilization", file: "src/provider/functions/machineInfo.ts", types: DATA_SOURCE_TYPES },
];

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
  file: "src/provider/shared/settings.ts",
  type: "CheckedSettings",
  settings: {
    apiKey: { secret: true, environment: ["VMAPI_API_KEY", "PAPERSPACE_API_KEY"] },
    baseUrl: { secret: false, environment: ["VMAPI_BASE_URL", "PAPERSPACE_API_HOST"] },
    pollScale: { secret: false, environment: ["VMAPI_POLL_SCALE"] },
  },
  models: [{ file: "src/provider/shared/settings.ts", type: "SettingRules" }],
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
