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
 * version their SDK asks for. And the converter of `pulumi import --from vmapi` as its users
 * install it: dist.sh's converter tarball (the same executable, named `pulumi-converter-vmapi`)
 * by `pulumi plugin install converter vmapi <version> --file <tarball>`, a Terraform state of a
 * machine and its script imported into a YAML stack with no node on PATH. And the policy pack's
 * analyzer: dist.sh's analyzer tarball by `pulumi plugin install analyzer policy-vmapi <version>
 * --file <tarball>`, its executable given to `preview --policy-pack`.
 */
import * as fs from "fs";
import * as path from "path";
import { VmApiClient } from "../../src/client/client";
import type { RunningEmulator } from "../../src/emulator";
import {
  analyzerReleaseAsset,
  converterReleaseAsset,
  pluginVersion,
  releaseAsset,
} from "../../tools/plugin/releaseAssets";
import { MACHINE_BASICS } from "../kit/machines";
import { SEEDED } from "../kit/seeded";
import { expectExit, REPO, steps } from "./support/cli";
import {
  expectHostedSucceeded,
  HostedProgram,
  packageVenvPython,
  type HostedLanguage,
} from "./support/hostedProgram";
import {
  EXAMPLES,
  connectionConfig,
  liveMachines,
  PROGRAMS,
  startE2eEmulator,
  TIME_SCALE,
} from "./support/kit";
import { prepareExample } from "./support/languageExample";
import { PlainCli } from "./support/plainCli";

jest.setTimeout(600_000);

const VERSION = pluginVersion();
/** The tarball, the Go program and the wheel's venv are made once per machine: minutes the first time. */
const PREPARE_TIMEOUT_MS = 20 * 60_000;

let emu: RunningEmulator;
let cli: PlainCli;
let tarball: string;
let converterTarball: string;
let analyzerTarball: string;
let python: string;

beforeAll(() => {
  tarball = releaseAsset();
  converterTarball = converterReleaseAsset();
  analyzerTarball = analyzerReleaseAsset();
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

/** A Terraform state (format 4) of the Paperspace provider: one script and the machine that runs it. */
function terraformState(scriptId: string, machineId: string): string {
  const provider = 'provider["registry.terraform.io/paperspace/paperspace"]';
  const resource = (type: string, name: string, attributes: Record<string, unknown>) => ({
    mode: "managed",
    type,
    name,
    provider,
    instances: [{ schema_version: 0, attributes, sensitive_attributes: [] }],
  });
  return JSON.stringify(
    {
      version: 4,
      terraform_version: "1.5.7",
      serial: 1,
      lineage: "0b6f1d0e-installed-converter",
      outputs: {},
      resources: [
        resource("paperspace_script", "setup", { id: scriptId, name: "installed-setup" }),
        resource("paperspace_machine", "trainer", { id: machineId, script_id: scriptId }),
      ],
    },
    null,
    2,
  );
}

test("pulumi plugin install converter --file: dist.sh's converter tarball → converter-vmapi-v<version> holding the executable as pulumi-converter-vmapi; import --from vmapi of a state, no node on PATH → the machine and its script imported; the YAML as printed previews no changes", async () => {
  await cli.ok(["plugin", "install", "converter", "vmapi", VERSION, "--file", converterTarball]);
  const installed = path.join(cli.pluginsDir, `converter-vmapi-v${VERSION}`);
  expect(fs.readdirSync(installed).sort()).toEqual([
    "LICENSE.node",
    "THIRD_PARTY_NOTICES",
    "pulumi-converter-vmapi",
  ]);

  const api = new VmApiClient({ apiKey: emu.keys.individual, baseUrl: emu.url });
  const script = await api.scripts.create({ scriptName: "installed-setup", scriptText: "#!/bin/bash\n" });
  const made = await api.machines.create({
    ...MACHINE_BASICS,
    machineName: "installed-trainer",
    templateId: SEEDED.headlessTemplate,
    scriptId: script.id,
  });
  await api.machines.waitFor(made.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });

  const program = path.join(cli.dir, "terraform-import");
  fs.mkdirSync(program);
  const header = "name: vmapi-installed-import\nruntime: yaml\n";
  fs.writeFileSync(path.join(program, "Pulumi.yaml"), `${header}resources: {}\n`);
  const state = path.join(program, "terraform.tfstate");
  fs.writeFileSync(state, terraformState(script.id, made.id));
  const stack = await cli.stack(program, connectionConfig(emu, emu.keys.individual));
  const generated = path.join(program, "generated.yaml");

  expect(nodesOn(String(cli.env.PATH))).toEqual([]);
  const imported = expectExit(
    await cli.run(
      [
        "import",
        "--from",
        "vmapi",
        state,
        "--yes",
        "--protect=false",
        "--out",
        generated,
        "--stack",
        stack.name,
      ],
      {
        cwd: program,
        env: {
          VMAPI_API_KEY: emu.keys.individual,
          VMAPI_BASE_URL: emu.url,
          VMAPI_POLL_SCALE: String(TIME_SCALE),
        },
      },
    ),
  );
  expect(imported.stdout + imported.stderr).toMatch(/2 imported/);
  const code = fs.readFileSync(generated, "utf8");
  const block = (name: string) => new RegExp(`^ {2}${name}:\\n((?: {4}.*\\n)+)`, "m").exec(code)?.[1] ?? "";
  expect(block("setup")).toMatch(/type: vmapi(:index)?:Script/);
  expect(block("trainer")).toMatch(/type: vmapi(:index)?:Machine/);
  expect(block("trainer")).toContain(`scriptId: ${script.id}`);
  fs.rmSync(generated);
  fs.writeFileSync(path.join(program, "Pulumi.yaml"), header + code);
  expectExit(await stack.preview("--expect-no-changes"));
});

test("pulumi plugin install analyzer policy-vmapi --file: dist.sh's analyzer tarball → analyzer-policy-vmapi-v<version> holding the executable as pulumi-analyzer-policy-vmapi; preview --policy-pack <it>, no node on PATH → a mandatory violation fails the preview on the machine's row; the API saw no write", async () => {
  await cli.ok(["plugin", "install", "analyzer", "policy-vmapi", VERSION, "--file", analyzerTarball]);
  const installed = path.join(cli.pluginsDir, `analyzer-policy-vmapi-v${VERSION}`);
  expect(fs.readdirSync(installed).sort()).toEqual([
    "LICENSE.node",
    "THIRD_PARTY_NOTICES",
    "pulumi-analyzer-policy-vmapi",
  ]);
  const program = path.join(cli.dir, "policy-pack");
  fs.mkdirSync(program);
  fs.writeFileSync(
    path.join(program, "Pulumi.yaml"),
    [
      "name: vmapi-installed-policy",
      "runtime: yaml",
      "resources:",
      "  trainer:",
      "    type: vmapi:index:Machine",
      "    properties:",
      "      region: East Coast (NY2)",
      "      machineType: C4",
      "      size: 50",
      "      billingType: hourly",
      `      templateId: ${SEEDED.headlessTemplate}`,
      "",
    ].join("\n"),
  );
  const config = path.join(program, "policy.json");
  fs.writeFileSync(
    config,
    JSON.stringify({ "allowed-regions": { enforcementLevel: "mandatory", regions: ["Europe (AMS1)"] } }),
  );
  const stack = await cli.stack(program, connectionConfig(emu, emu.keys.individual));
  expect(nodesOn(String(cli.env.PATH))).toEqual([]);
  const writes = (counts: Record<string, number>) =>
    Object.entries(counts).filter(([route]) => !route.startsWith("GET "));
  const before = writes((await emu.control.state()).requestCounts);
  const preview = await stack.preview(
    "--policy-pack",
    path.join(installed, "pulumi-analyzer-policy-vmapi"),
    "--policy-pack-config",
    config,
  );
  expect(preview.code).not.toBe(0);
  expect(preview.stdout + preview.stderr).toContain(`vmapi@v${VERSION}`);
  expect(preview.stdout + preview.stderr).toContain(
    "[mandatory]  allowed-regions  (vmapi:index:Machine: trainer)",
  );
  expect(writes((await emu.control.state()).requestCounts)).toEqual(before);
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
