/**
 * This checkout's plugin as `npm run pulumi` provides it (tools/pulumi/checkoutPlugin.ts): installed
 * by `pulumi plugin install resource vmapi <version> --file` into the PULUMI_HOME the wrapper uses,
 * where the engine finds a user's installed plugin, so the examples' projects need no `plugins:`
 * section. What is installed is a launcher of the checkout's compiled entry, which the wrapper
 * compiles from src/ before every run: an edit of src/ is served at the next command. It replaces
 * only what it installed, and runs at the same time install it once.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import {
  checkoutPluginLauncher,
  checkoutPluginVersion,
  installedPluginFile,
} from "../../tools/pulumi/checkoutPlugin";
import { pulumiCli } from "../../tools/pulumi/main";
import { useTempDirs } from "../kit/tempDirs";
import { expectExit, REPO } from "./support/cli";
import { EngineWorkspace } from "./support/engineStack";
import { EXAMPLES } from "./support/kit";

jest.setTimeout(180_000);

const VERSION = checkoutPluginVersion();
const YAML_EXAMPLE = path.join(EXAMPLES, "yaml");

const tempDir = useTempDirs();
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

test("the launcher installed already → left as it is; the launcher of another Node there → replaced by this one's, and stderr says so", async () => {
  const before = fs.statSync(installed).mtimeMs;
  await listed(YAML_EXAMPLE);
  expect(fs.statSync(installed).mtimeMs).toBe(before);

  fs.writeFileSync(installed, checkoutPluginLauncher("/another/node"), { mode: 0o755 });
  const run = expectExit(await workspace.run(["--program", YAML_EXAMPLE, "plugin", "ls", "--json"]));
  expect(run.stderr).toContain(`replacing the vmapi ${VERSION} plugin in ${workspace.env.PULUMI_HOME}`);
  expect(fs.readFileSync(installed, "utf8")).toBe(checkoutPluginLauncher(process.execPath));
});

/** Every file under `dir` (relative path → its bytes, mode and modification time). */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((name) => {
      const file = path.join(dir, name);
      const stat = fs.statSync(file);
      const bytes = stat.isFile() ? fs.readFileSync(file).toString("base64") : "(folder)";
      return [name, `${stat.mode.toString(8)} ${stat.mtimeMs} ${bytes}`];
    }),
  );
}

test("a vmapi <version> the user installed in their PULUMI_HOME (a release's executable) → left byte for byte; npm run pulumi stops, naming it and what to do", async () => {
  const own = new EngineWorkspace();
  try {
    const release = path.join(tempDir(), "pulumi-resource-vmapi");
    fs.writeFileSync(release, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), { mode: 0o755 });
    const args = ["plugin", "install", "resource", "vmapi", VERSION, "--file", release];
    expect(spawnSync(pulumiCli(), args, { env: own.env }).status).toBe(0);
    const folder = path.dirname(installedPluginFile(String(own.env.PULUMI_HOME), VERSION));
    const before = snapshot(folder);

    const run = expectExit(await own.run(["--program", YAML_EXAMPLE, "plugin", "ls", "--json"]), 1);

    expect(snapshot(folder)).toEqual(before);
    expect(run.stderr).toContain(
      `${folder} holds a vmapi ${VERSION} plugin that npm run pulumi did not install`,
    );
    expect(run.stderr).toContain(
      `PULUMI_HOME=${own.env.PULUMI_HOME} pulumi plugin rm resource vmapi ${VERSION} --yes`,
    );
  } finally {
    own.dispose();
  }
});

test("two npm run pulumi at once on a PULUMI_HOME with no vmapi plugin → both succeed, the launcher installed once and intact", async () => {
  const own = new EngineWorkspace();
  try {
    // The CLI the wrapper runs, logging each plugin install it is asked for.
    const installs = path.join(tempDir(), "installs");
    const counting = path.join(path.dirname(installs), "pulumi");
    fs.writeFileSync(
      counting,
      `#!/bin/sh\n[ "$1 $2" = "plugin install" ] && echo "$*" >>'${installs}'\nexec '${pulumiCli()}' "$@"\n`,
      { mode: 0o755 },
    );
    const env = { VMAPI_PULUMI: counting };

    const runs = await Promise.all(
      [1, 2].map(() => own.run(["--program", YAML_EXAMPLE, "plugin", "ls", "--json"], { env })),
    );

    for (const run of runs) expectExit(run);
    expect(fs.readFileSync(installs, "utf8").trim().split("\n")).toHaveLength(1);
    const file = installedPluginFile(String(own.env.PULUMI_HOME), VERSION);
    expect(fs.readFileSync(file, "utf8")).toBe(checkoutPluginLauncher(process.execPath));
  } finally {
    own.dispose();
  }
});
