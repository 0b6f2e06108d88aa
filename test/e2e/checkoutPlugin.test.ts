/**
 * This checkout's plugin as `npm run pulumi` provides it (tools/pulumi/checkoutPlugin.ts): installed
 * by `pulumi plugin install resource vmapi <version> --file` into the PULUMI_HOME the wrapper uses,
 * where the engine finds a user's installed plugin, so the examples' projects need no `plugins:`
 * section. What is installed is a launcher of the checkout's compiled entry, which the wrapper
 * compiles from src/ before every run: an edit of src/ is served at the next command.
 */
import * as fs from "fs";
import * as path from "path";
import {
  checkoutPluginLauncher,
  checkoutPluginVersion,
  installedPluginFile,
} from "../../tools/pulumi/checkoutPlugin";
import { expectExit, REPO } from "./support/cli";
import { EngineWorkspace } from "./support/engineStack";
import { EXAMPLES } from "./support/kit";

jest.setTimeout(180_000);

const VERSION = checkoutPluginVersion();
const YAML_EXAMPLE = path.join(EXAMPLES, "yaml");

let workspace: EngineWorkspace;
let installed: string;

beforeAll(() => {
  workspace = new EngineWorkspace();
  installed = installedPluginFile(String(workspace.env.PULUMI_HOME), VERSION);
});
afterAll(() => workspace?.dispose());

/** The plugins `plugin ls` lists in the workspace's PULUMI_HOME, run through the wrapper on `program`. */
async function listed(program: string): Promise<string[]> {
  const run = expectExit(await workspace.run(["--program", program, "plugin", "ls", "--json"]));
  return (JSON.parse(run.stdout) as Array<{ name: string; kind: string; version: string }>).map(
    (p) => `${p.kind} ${p.name} ${p.version}`,
  );
}

test("npm run pulumi on a TypeScript program → no plugin installed (its resources are dynamic)", async () => {
  expect(await listed(path.join(EXAMPLES, "quickstart"))).toEqual([]);
});

test("npm run pulumi in the YAML example (no plugins: section) → vmapi <version> installed in PULUMI_HOME, the launcher of this checkout's compiled entry on this Node; package get-schema vmapi → the checkout's schema", async () => {
  expect(fs.readFileSync(path.join(YAML_EXAMPLE, "Pulumi.yaml"), "utf8")).not.toMatch(/^plugins:/m);
  const printed = expectExit(
    await workspace.run(["--program", YAML_EXAMPLE, "package", "get-schema", "vmapi"]),
  );

  expect(await listed(YAML_EXAMPLE)).toEqual([`resource vmapi ${VERSION}`]);
  const launcher = fs.readFileSync(installed, "utf8");
  expect(launcher).toBe(checkoutPluginLauncher(process.execPath));
  expect(launcher).toContain(`'${path.join(REPO, "dist", "provider", "native", "main.js")}' "$@"`);
  const schema = JSON.parse(printed.stdout) as { name: string; version: string; resources: object };
  const shipped = JSON.parse(
    fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8"),
  ) as typeof schema;
  expect([schema.name, schema.version, Object.keys(schema.resources)]).toEqual([
    shipped.name,
    shipped.version,
    Object.keys(shipped.resources),
  ]);
});

test("the launcher installed already → left as it is; another vmapi <version> there (a release's executable) → replaced by the launcher, and stderr says so", async () => {
  const before = fs.statSync(installed).mtimeMs;
  await listed(YAML_EXAMPLE);
  expect(fs.statSync(installed).mtimeMs).toBe(before);

  fs.writeFileSync(installed, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), { mode: 0o755 });
  const run = expectExit(await workspace.run(["--program", YAML_EXAMPLE, "plugin", "ls", "--json"]));
  expect(run.stderr).toContain(`replacing the vmapi ${VERSION} plugin in ${workspace.env.PULUMI_HOME}`);
  expect(fs.readFileSync(installed, "utf8")).toBe(checkoutPluginLauncher(process.execPath));
});
