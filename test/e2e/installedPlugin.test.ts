/**
 * The plugin as its users install it, with no Node and no npm: the release tarball of
 * `npm run plugin:dist` (tools/plugin/dist.sh, a Node single executable) installed by
 * `pulumi plugin install resource vmapi <version> --file <tarball>` into the test's own
 * PULUMI_HOME; then programs with no `plugins:` section, run by the real CLI directly with a PATH
 * of one folder that holds only the CLI: no `node` anywhere, so the plugin that serves them is the
 * installed executable, standing on its own. A Pulumi YAML program; and the Go and Python
 * quickstarts (examples/go, examples/python), hosted inline by their Automation API runners (no
 * Go or Python language host can be built here), Python's on the SDK's wheel installed by pip
 * with its dependencies into a fresh venv: the engine finds the plugin in PULUMI_HOME from the
 * version their SDK asks for.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../src/emulator";
import { pluginVersion, releaseAsset } from "../../tools/plugin/releaseAssets";
import { expectExit, REPO, steps } from "./support/cli";
import {
  expectHostedSucceeded,
  HostedProgram,
  packageVenvPython,
  type HostedLanguage,
} from "./support/hostedProgram";
import { EXAMPLES, connectionConfig, liveMachines, PROGRAMS, startE2eEmulator } from "./support/kit";
import { prepareExample } from "./support/languageExample";
import { PlainCli } from "./support/plainCli";

jest.setTimeout(600_000);

const VERSION = pluginVersion();
/** The tarball, the Go program and the wheel's venv are made once per machine: minutes the first time. */
const PREPARE_TIMEOUT_MS = 20 * 60_000;

let emu: RunningEmulator;
let cli: PlainCli;
let tarball: string;
let python: string;

beforeAll(() => {
  tarball = releaseAsset();
  prepareExample("go");
  python = packageVenvPython();
}, PREPARE_TIMEOUT_MS);
beforeAll(async () => {
  emu = await startE2eEmulator();
  cli = PlainCli.create({ cliOnPath: true });
  await cli.ok(["plugin", "install", "resource", "vmapi", VERSION, "--file", tarball]);
});
afterAll(async () => {
  cli?.dispose();
  await emu?.close();
});

/** `value` with every empty array left out of the objects that hold one. */
function withoutEmptyLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyLists);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => !(Array.isArray(v) && v.length === 0))
      .map(([k, v]) => [k, withoutEmptyLists(v)]),
  );
}

/** The folders of a PATH that hold a `node`. */
function nodesOn(pathVariable: string): string[] {
  return pathVariable.split(path.delimiter).filter((dir) => fs.existsSync(path.join(dir, "node")));
}

test("pulumi plugin install --file: the release tarball → resource-vmapi-v<version> under PULUMI_HOME holding the executable, its licenses and nothing of Node's or npm's; package get-schema → the plugin's schema", async () => {
  const installed = path.join(cli.pluginsDir, `resource-vmapi-v${VERSION}`);
  expect(fs.readdirSync(installed).sort()).toEqual([
    "LICENSE.node",
    "THIRD_PARTY_NOTICES",
    "pulumi-resource-vmapi",
  ]);
  expect(fs.statSync(path.join(installed, "pulumi-resource-vmapi")).mode & 0o111).not.toBe(0);
  const listed = JSON.parse(expectExit(await cli.run(["plugin", "ls", "--json"])).stdout) as Array<{
    name: string;
    kind: string;
    version: string;
  }>;
  expect(listed.map(({ name, kind, version }) => ({ name, kind, version }))).toEqual([
    { name: "vmapi", kind: "resource", version: VERSION },
  ]);

  expect(nodesOn(String(cli.env.PATH))).toEqual([]);
  const printed = expectExit(await cli.run(["package", "get-schema", "vmapi"]));
  const shipped = JSON.parse(fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8")) as unknown;
  // The CLI prints the schema as it decoded it, which leaves out empty lists.
  expect(JSON.parse(printed.stdout)).toEqual(withoutEmptyLists(shipped));
});

test("a YAML program with no plugins: section, no node on PATH → up makes the machine and its script through the installed plugin; preview → no changes; destroy → nothing left", async () => {
  const program = cli.program(path.join(PROGRAMS, "yaml", "installed"));
  expect(fs.readFileSync(path.join(program, "Pulumi.yaml"), "utf8")).not.toMatch(/^plugins:/m);
  expect(nodesOn(String(cli.env.PATH))).toEqual([]);
  const stack = await cli.stack(program, {
    ...connectionConfig(emu, emu.keys.individual),
    scriptText: { secret: "echo installed" },
  });

  const up = expectExit(await stack.up());
  expect(
    steps(up)
      .map((s) => s.type)
      .sort(),
  ).toEqual(["vmapi:index:Machine", "vmapi:index:Script"]);
  const outputs = await stack.outputs();
  expect(outputs.currentState).toBe("ready");
  const machine = liveMachines(await emu.control.state()).find((m) => m.id === outputs.machineId);
  expect(machine?.state).toBe("ready");

  expectExit(await stack.preview("--expect-no-changes"));
  expectExit(await stack.destroy());
  expect(liveMachines(await emu.control.state()).map((m) => m.id)).not.toContain(outputs.machineId);
});

test.each<[HostedLanguage, string]>([
  ["go", "the Go quickstart"],
  ["python", "the Python quickstart on the wheel"],
])(
  "%s: %s, no plugins: section, hosted inline, no node on PATH → up makes the machine and its script through the installed plugin of the version the SDK asks for; preview → no changes; destroy → nothing left",
  async (language) => {
    const program = await HostedProgram.create(
      cli,
      language,
      path.join(EXAMPLES, language),
      connectionConfig(emu, emu.keys.individual),
      language === "python" ? python : undefined,
    );
    expect(fs.readFileSync(path.join(program.stack.program, "Pulumi.yaml"), "utf8")).not.toMatch(
      /^plugins:/m,
    );
    expect(nodesOn(String(cli.env.PATH))).toEqual([]);

    const up = expectHostedSucceeded(await program.run("up"));
    expect(up.summary.steps.map((s) => [s.op, s.type])).toEqual([
      ["create", "vmapi:index:Machine"],
      ["create", "vmapi:index:Script"],
    ]);
    const { machineId } = up.summary.outputs!;
    expect(liveMachines(await emu.control.state()).find((m) => m.id === machineId)?.state).toBe("ready");
    // The engine's default provider for the SDK's resources: the plugin at the version the SDK asked for.
    const exported = JSON.parse(
      expectExit(
        await cli.run(["stack", "export", "--stack", program.stack.name], { cwd: program.stack.program }),
      ).stdout,
    ) as { deployment: { resources: Array<{ type: string; inputs?: Record<string, unknown> }> } };
    const providers = exported.deployment.resources.filter((r) => r.type === "pulumi:providers:vmapi");
    expect(providers.map((p) => p.inputs?.version)).toEqual([VERSION]);

    const preview = expectHostedSucceeded(await program.run("preview"));
    expect(preview.summary.changes).toEqual({ same: 3 });
    expectHostedSucceeded(await program.run("destroy"));
    expect(liveMachines(await emu.control.state()).map((m) => m.id)).not.toContain(machineId);
  },
);
