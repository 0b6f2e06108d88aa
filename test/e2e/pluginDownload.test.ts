/**
 * The engine fetches the plugin by itself, as it fetches Pulumi's own providers: automatic plugin
 * acquisition on, nothing installed beforehand, the release tarballs of `npm run plugin:dist`
 * served by an HTTP server on loopback (the release host), and programs with no `plugins:`
 * section, run by the real CLI directly with no `node` on PATH. Two ways a program names where
 * the plugin comes from:
 * - its SDK, pointed at the local host the way a user points it at a mirror, with
 *   PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: for Pulumi YAML, the package declaration
 *   `pulumi package gen-sdk --language yaml` writes from the schema (name, version, the schema's
 *   `pluginDownloadURL`); for Python, the SDK's wheel installed by pip with its dependencies into
 *   a fresh venv, whose resources name the version and that URL (the quickstart, examples/python,
 *   hosted inline by its Automation API runner: the engine installs the plugin when the default
 *   provider of the SDK's first resource or call is registered);
 * - an explicit provider whose `version` and `pluginDownloadURL` resource options name the host.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../src/emulator";
import { assetName, hostArch, pluginVersion, releaseAsset } from "../../tools/plugin/releaseAssets";
import { expectExit, REPO } from "./support/cli";
import type { StackConfig } from "./support/engineStack";
import { expectHostedSucceeded, HostedProgram, packageVenvPython } from "./support/hostedProgram";
import {
  connectionConfig,
  EXAMPLES,
  liveMachines,
  PROGRAMS,
  startE2eEmulator,
  TIME_SCALE,
} from "./support/kit";
import { PlainCli, type PlainCliOptions } from "./support/plainCli";
import { startReleaseHost, type ReleaseHost } from "./support/releaseHost";

jest.setTimeout(600_000);

const VERSION = pluginVersion();
const SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8")) as {
  pluginDownloadURL: string;
};

/** The tarball and the wheel's venv are made once per machine: minutes the first time. */
const PREPARE_TIMEOUT_MS = 20 * 60_000;

let emu: RunningEmulator;
let host: ReleaseHost;
let tarball: string;
let python: string;
const workspaces: PlainCli[] = [];

beforeAll(() => {
  tarball = releaseAsset();
  python = packageVenvPython();
}, PREPARE_TIMEOUT_MS);
beforeAll(async () => {
  host = await startReleaseHost(tarball, VERSION);
  emu = await startE2eEmulator();
});
afterAll(async () => {
  for (const cli of workspaces) cli.dispose();
  await host?.close();
  await emu?.close();
});

/** A workspace that downloads plugins, with nothing installed. */
async function emptyWorkspace(options: Omit<PlainCliOptions, "acquisition"> = {}): Promise<PlainCli> {
  const cli = PlainCli.create({ ...options, acquisition: true });
  workspaces.push(cli);
  expect(JSON.parse(expectExit(await cli.run(["plugin", "ls", "--json"])).stdout)).toEqual([]);
  return cli;
}

/** Runs up, preview (no changes) and destroy of `program`; returns the machine the up made. */
async function expectRoundTrip(cli: PlainCli, program: string, config: StackConfig = {}): Promise<string> {
  const stack = await cli.stack(program, {
    ...connectionConfig(emu, emu.keys.individual),
    scriptText: { secret: "echo downloaded" },
    ...config,
  });
  expectExit(await stack.up());
  const { machineId } = await stack.outputs();
  expect(liveMachines(await emu.control.state()).find((m) => m.id === machineId)?.state).toBe("ready");
  expectExit(await stack.preview("--expect-no-changes"));
  expectExit(await stack.destroy());
  expect(liveMachines(await emu.control.state()).map((m) => m.id)).not.toContain(machineId);
  return String(machineId);
}

/** The plugins Pulumi has installed in `cli`'s PULUMI_HOME, as `plugin ls` lists them. */
async function installedPlugins(cli: PlainCli): Promise<string[]> {
  const listed = JSON.parse(expectExit(await cli.run(["plugin", "ls", "--json"])).stdout) as Array<{
    name: string;
    version: string;
  }>;
  return listed.map((p) => `${p.name} ${p.version}`);
}

/**
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sending a download from the schema's URL to the release
 * host's `/mirror/v${VERSION}`, as a user points the released SDKs at a mirror.
 */
function mirrorOverride(): NodeJS.ProcessEnv {
  const released = SCHEMA.pluginDownloadURL;
  expect(released).toContain("${VERSION}");
  const prefix = released.slice(0, released.indexOf("${VERSION}"));
  // regexp=URL: a plugin whose download URL matches is fetched from URL instead (${VERSION} filled in alike).
  return {
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}=${host.url}/mirror/v\${VERSION}`,
  };
}

/** The request the engine makes for this platform's tarball of the plugin through the mirror. */
const MIRRORED_GET = `GET /mirror/v${VERSION}/${assetName(VERSION, hostArch())}`;

test("the YAML SDK generated from the schema, its pluginDownloadURL pointed at a mirror by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES → the engine downloads v<version> of this platform, installs it and runs the program", async () => {
  const released = SCHEMA.pluginDownloadURL;
  const cli = await emptyWorkspace({ env: mirrorOverride() });
  const program = cli.program(path.join(PROGRAMS, "yaml", "installed"));
  expectExit(
    await cli.run([
      "package",
      "gen-sdk",
      path.join(REPO, "plugin", "schema.json"),
      "--language",
      "yaml",
      "--out",
      path.join(program, "sdks"),
    ]),
  );
  const declaration = fs.readFileSync(path.join(program, "sdks", "yaml", `vmapi-${VERSION}.yaml`), "utf8");
  expect(declaration).toContain(`downloadUrl: ${released}`);
  host.requests.length = 0;

  await expectRoundTrip(cli, program);
  expect(host.requests).toEqual([MIRRORED_GET]);
  expect(await installedPlugins(cli)).toEqual([`vmapi ${VERSION}`]);
});

test("a Python program (the quickstart) on the SDK's wheel in a fresh venv, no plugins: section, the SDK's pluginDownloadURL pointed at a mirror → the engine downloads v<version> of this platform once, installs it; up, preview with no changes, destroy", async () => {
  const cli = await emptyWorkspace({ env: mirrorOverride(), cliOnPath: true });
  const program = await HostedProgram.create(
    cli,
    "python",
    path.join(EXAMPLES, "python"),
    connectionConfig(emu, emu.keys.individual),
    python,
  );
  expect(fs.readFileSync(path.join(program.stack.program, "Pulumi.yaml"), "utf8")).not.toMatch(/^plugins:/m);
  host.requests.length = 0;

  const up = expectHostedSucceeded(await program.run("up"));
  const { machineId } = up.summary.outputs!;
  expect(liveMachines(await emu.control.state()).find((m) => m.id === machineId)?.state).toBe("ready");
  expect(expectHostedSucceeded(await program.run("preview")).summary.changes).toEqual({ same: 3 });
  expectHostedSucceeded(await program.run("destroy"));
  expect(liveMachines(await emu.control.state()).map((m) => m.id)).not.toContain(machineId);

  expect(host.requests).toEqual([MIRRORED_GET]);
  expect(await installedPlugins(cli)).toEqual([`vmapi ${VERSION}`]);
});

test("an explicit provider with the version and pluginDownloadURL resource options → the engine downloads the plugin from that URL and runs the program", async () => {
  const cli = await emptyWorkspace();
  const program = cli.program(path.join(PROGRAMS, "yaml", "downloaded"));
  const text = fs.readFileSync(path.join(program, "Pulumi.yaml"), "utf8");
  expect(text).toContain(`version: ${VERSION}`);
  fs.writeFileSync(
    path.join(program, "Pulumi.yaml"),
    text.replace("pluginDownloadURL: http://release.host/", `pluginDownloadURL: ${host.url}/direct/`),
  );
  host.requests.length = 0;

  // The explicit provider's settings, as its program declares them.
  await expectRoundTrip(cli, program, {
    apiKey: { secret: emu.keys.individual },
    apiUrl: emu.url,
    pollScale: String(TIME_SCALE),
  });
  expect(host.requests).toEqual([`GET /direct/v${VERSION}/${assetName(VERSION, hostArch())}`]);
  expect(await installedPlugins(cli)).toEqual([`vmapi ${VERSION}`]);
});
