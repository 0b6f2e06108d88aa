/**
 * The plugin's package schema as tools/schema generates it from the code: a few properties read
 * as the classes declare them, every property described, every diff-table row an input (and every
 * input a row), and the committed schema and reference tables current.
 */
import { DEFAULT_BASE_URL, REGIONS } from "../../../src/contract/constants";
import { checkSettings } from "../../../src/provider/account/settings";
import { spawnSync } from "child_process";
import * as path from "path";
import { buildSchema, type BuiltSchema } from "../../../tools/schema/buildSchema";
import type { PackageSpec, PropertySpec } from "../../../tools/schema/packageSpec";
import { PROVIDER_SETTINGS, RESOURCES } from "../../../tools/schema/sources";

const REPO = path.resolve(__dirname, "..", "..", "..");
let built: BuiltSchema;
let schema: PackageSpec;

beforeAll(() => {
  built = buildSchema();
  schema = built.schema;
}, 60_000);

const machine = () => schema.resources["vmapi:index:Machine"];
const script = () => schema.resources["vmapi:index:Script"];

/** Every property of the schema, with where it is. */
function everyProperty(): [string, PropertySpec][] {
  const found: [string, PropertySpec][] = [];
  const add = (where: string, properties: Record<string, PropertySpec>) =>
    Object.entries(properties).forEach(([name, p]) => found.push([`${where}.${name}`, p]));
  add("config", schema.config.variables);
  add("provider", schema.provider.inputProperties);
  for (const [token, r] of Object.entries(schema.resources)) {
    add(`${token} input`, r.inputProperties);
    add(`${token} output`, r.properties);
  }
  for (const [token, f] of Object.entries(schema.functions)) {
    add(`${token} input`, f.inputs.properties);
    add(`${token} output`, f.outputs.properties);
  }
  for (const [token, t] of Object.entries(schema.types)) if ("properties" in t) add(token, t.properties);
  return found;
}

describe("schema", () => {
  test("Machine region: the Region enum of the three regions, required, replaces", () => {
    const region = machine().inputProperties.region;
    expect(region).toMatchObject({ $ref: "#/types/vmapi:index:Region", replaceOnChanges: true });
    expect(machine().requiredInputs).toContain("region");
    const type = schema.types["vmapi:index:Region"];
    expect(type).toMatchObject({ type: "string" });
    expect("enum" in type && type.enum.map((e) => e.value)).toEqual([...REGIONS]);
    expect("enum" in type && type.enum.map((e) => e.name)).toEqual([
      "WestCoastCA1",
      "EastCoastNY2",
      "EuropeAMS1",
    ]);
  });

  test("Machine password: a secret input that replaces; its digest a secret output, the password no output", () => {
    expect(machine().inputProperties.password).toMatchObject({
      type: "string",
      secret: true,
      replaceOnChanges: true,
    });
    expect(machine().properties.passwordDigest).toMatchObject({ secret: true });
    expect(machine().properties.password).toBeUndefined();
  });

  test("Machine name: updates in place (no replaceOnChanges), and is a required output", () => {
    expect(machine().inputProperties.name.replaceOnChanges).toBeUndefined();
    expect(built.changes["vmapi:index:Machine"].name).toBe("update");
    expect(machine().required).toContain("name");
  });

  test("Machine state: the PowerState enum, default ready, through start/stop; currentState is MachineState", () => {
    expect(machine().inputProperties.state).toMatchObject({
      $ref: "#/types/vmapi:index:PowerState",
      default: "ready",
    });
    expect(built.changes["vmapi:index:Machine"].state).toBe("power");
    expect(machine().properties.currentState).toMatchObject({ $ref: "#/types/vmapi:index:MachineState" });
    // The API may report a region this package does not list: the output is a string.
    expect(machine().properties.region).toMatchObject({ type: "string" });
  });

  test("Machine events: a list of MachineEvent objects", () => {
    expect(machine().properties.events).toMatchObject({
      type: "array",
      items: { $ref: "#/types/vmapi:index:MachineEvent" },
    });
    expect(schema.types["vmapi:index:MachineEvent"]).toMatchObject({
      type: "object",
      required: expect.any(Array),
    });
  });

  test("Script scriptText and scriptFile: replace (through the content's hash), neither required nor secret", () => {
    for (const key of ["scriptText", "scriptFile"]) {
      expect(script().inputProperties[key]).toMatchObject({ type: "string", replaceOnChanges: true });
      expect(script().inputProperties[key].secret).toBeUndefined();
    }
    expect(script().requiredInputs).toEqual([]);
    expect(script().inputProperties.isEnabled.default).toBe(true);
    expect(script().properties.ownerType).toMatchObject({ $ref: "#/types/vmapi:index:OwnerType" });
  });

  test("secrets: the delegation's token and getScriptText's text", () => {
    expect(schema.resources["vmapi:index:ResourceDelegation"].properties.accessTokenId.secret).toBe(true);
    expect(schema.functions["vmapi:index:getScriptText"].outputs.properties.text.secret).toBe(true);
    expect(schema.functions["vmapi:index:getUsers"].outputs.properties.users.secret).toBeUndefined();
  });

  test("the native door: no account and no __ key, on resources or functions", () => {
    const names = everyProperty().map(([where]) => where.split(".").pop()!);
    expect(names.filter((name) => name === "account" || name.startsWith("__"))).toEqual([]);
  });

  test("every property has a description", () => {
    const bare = everyProperty().filter(([, p]) => !p.description || p.description.trim() === "");
    expect(bare.map(([where]) => where)).toEqual([]);
    for (const [token, r] of Object.entries(schema.resources))
      expect([token, r.description]).not.toEqual([token, ""]);
  });

  test("every diff-table row is an input and every input a row (or computed into one)", () => {
    for (const resource of RESOURCES) {
      const inputs = Object.keys(schema.resources[`vmapi:index:${resource.kind}`].inputProperties);
      const computedFrom = Object.values(resource.derived ?? {}).flat();
      const rows = Object.keys(resource.changes).filter((row) => !(row in (resource.derived ?? {})));
      expect({ kind: resource.kind, inputs: [...inputs].sort() }).toEqual({
        kind: resource.kind,
        inputs: [...rows, ...computedFrom].sort(),
      });
      for (const [row, from] of Object.entries(resource.derived ?? {}))
        expect([row, from.length]).not.toEqual([row, 0]);
    }
  });

  test("provider settings: apiKey secret without default; baseUrl defaults to the client's; each variable is read", () => {
    const { apiKey, baseUrl, pollScale } = schema.provider.inputProperties;
    expect(apiKey).toMatchObject({
      type: "string",
      secret: true,
      defaultInfo: { environment: ["VMAPI_API_KEY", "PAPERSPACE_API_KEY"] },
    });
    expect(apiKey.default).toBeUndefined();
    expect(baseUrl).toMatchObject({ type: "string", default: DEFAULT_BASE_URL });
    expect(pollScale).toMatchObject({ type: "number", default: 1 });
    expect(schema.config.variables).toEqual(schema.provider.inputProperties);
    const values = { apiKey: "key-from-env", baseUrl: "http://127.0.0.1:9", pollScale: 0.5 };
    for (const [name, stated] of Object.entries(PROVIDER_SETTINGS.settings)) {
      const key = name as keyof typeof values;
      for (const variable of stated.environment) {
        const settings = key === "apiKey" ? {} : { apiKey: "k" };
        const read = checkSettings(settings, { [variable]: String(values[key]) })[key];
        expect([variable, read]).toEqual([variable, values[key]]);
      }
    }
  });

  test("package: name, version and license from package.json, repository, keywords, publisher, languages", () => {
    const pkg = require("../../../package.json") as { version: string; license: string };
    expect(schema).toMatchObject({
      name: "vmapi",
      version: pkg.version,
      license: pkg.license,
      repository: "https://github.com/pulumi-vmapi/pulumi-vmapi",
      homepage: "https://github.com/pulumi-vmapi/pulumi-vmapi",
      publisher: "pulumi-vmapi",
    });
    expect(schema.keywords).toEqual(expect.arrayContaining(["pulumi", "vmapi", "kind/native"]));
    expect(schema.description).not.toBe("");
    expect(schema.language.go).toMatchObject({
      importBasePath: "github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi",
      respectSchemaVersion: true,
    });
    expect(schema.language.python).toMatchObject({
      packageName: "pulumi_vmapi",
      pythonRequires: ">=3.11",
      requires: { pulumi: ">=3.269.0,<4.0.0" },
      respectSchemaVersion: true,
    });
    // The README pip shows: the install line of this version, the versions it needs.
    const readme = String(schema.language.python.readme);
    expect(readme).toContain(`pip install pulumi_vmapi==${pkg.version}`);
    expect(readme).toContain("Python\n3.11 or newer");
    expect(readme).toContain("`pulumi` (>=3.269.0,<4.0.0)");
  });

  test("integers: counts, hours, seconds and a disk's size are integer, the poll scale a number", () => {
    const kinds = Object.fromEntries(
      everyProperty()
        .filter(([, p]) => "type" in p && (p.type === "integer" || p.type === "number"))
        .map(([where, p]) => [where, "type" in p ? p.type : undefined]),
    );
    expect(kinds).toEqual({
      "config.pollScale": "number",
      "provider.pollScale": "number",
      "vmapi:index:Machine input.size": "integer",
      "vmapi:index:Machine input.shutdownTimeoutInHours": "integer",
      "vmapi:index:Machine input.autoSnapshotSaveCount": "integer",
      "vmapi:index:Machine input.waitTimeoutSeconds": "integer",
      "vmapi:index:Machine output.size": "integer",
      "vmapi:index:Machine output.cpus": "integer",
      "vmapi:index:Machine output.shutdownTimeoutInHours": "integer",
      "vmapi:index:Machine output.autoSnapshotSaveCount": "integer",
      "vmapi:index:ResourceDelegation input.renewBeforeSeconds": "integer",
      "vmapi:index:ResourceDelegation output.delegationId": "integer",
      "vmapi:index:MachineRestart input.waitTimeoutSeconds": "integer",
      "vmapi:index:MachineRestart output.waitTimeoutSeconds": "integer",
      "vmapi:index:getMachines input.cpus": "integer",
      "vmapi:index:getMachines input.shutdownTimeoutInHours": "integer",
      "vmapi:index:getMachines input.autoSnapshotSaveCount": "integer",
      "vmapi:index:getMachines input.maxItems": "integer",
      "vmapi:index:GetMachinesMachine.cpus": "integer",
      "vmapi:index:GetMachinesMachine.shutdownTimeoutInHours": "integer",
      "vmapi:index:GetMachinesMachine.autoSnapshotSaveCount": "integer",
      "vmapi:index:GetMachinesMachine.internalId": "integer",
      "vmapi:index:Utilization.secondsUsed": "integer",
      "vmapi:index:StorageUtilization.secondsUsed": "integer",
    });
  });

  test("the committed schema and reference tables are what the code generates (else: npm run schema:update)", () => {
    // In a process of its own: prettier, which formats them, loads its plugins by dynamic import.
    const check = spawnSync(
      process.execPath,
      [require.resolve("ts-node/dist/bin"), "--transpile-only", "tools/schema/main.ts"],
      { cwd: REPO, encoding: "utf8", timeout: 60_000 },
    );
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: "" });
  }, 60_000);
});
