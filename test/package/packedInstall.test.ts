/**
 * The package as users install it: `npm pack`, then the tarball installed into a fresh project
 * outside the repository with its own @pulumi/pulumi (the lowest version the peer range allows
 * and the newest this repository tests, so also a version other than the one the package was
 * built against) and TypeScript; examples/quickstart runs there through the real engine (up,
 * preview with no changes, destroy), the Pulumi YAML quickstart runs on the plugin the tarball
 * ships (`path: node_modules/pulumi-vmapi/plugin`, as the README says), `npx vmapi-emulator
 * --help` runs from that project, and the installed emulator serves its web console.
 * One copy of the SDK ends up in the project. Not under test/e2e: `.ci/run` re-runs that folder
 * with the lowest SDK, and this test installs both versions itself. `dist/` is the one jest's
 * global setup compiled; `npm pack --ignore-scripts` does not build it again under the other
 * test files' feet.
 */
import { execFile, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { EngineStack, EngineWorkspace } from "../e2e/support/engineStack";
import { REPO, expectExit } from "../e2e/support/cli";
import { connectionConfig, liveMachines, startE2eEmulator } from "../e2e/support/kit";
import type { RunningEmulator } from "../../src/emulator";
import { readyLine } from "../../tools/emulatorReady";

jest.setTimeout(600_000);

const run = promisify(execFile);
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
const LOWEST: string = manifest.peerDependencies["@pulumi/pulumi"].replace(/^\^/, "");
const NEWEST: string = manifest.devDependencies["@pulumi/pulumi"];

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

let work: string;
let packed: Packed;
let emu: RunningEmulator;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-packed-"));
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
    cwd: REPO,
    maxBuffer: 16 * 1024 * 1024,
  });
  packed = (JSON.parse(stdout) as Packed[])[0];
  emu = await startE2eEmulator();
});
afterAll(async () => {
  await emu?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test("the tarball: the compiled package, the plugin's, the converter's and the policy pack's launchers and the schema, its README; no tests, benchmarks, tools or sources", () => {
  const paths = packed.files.map((f) => f.path);
  process.stdout.write(
    `${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${paths.length} files\n`,
  );
  expect(paths).toContain("dist/index.js");
  expect(paths).toContain("dist/provider/runtime.js");
  expect(paths).toContain("dist/emulator/cli.js");
  expect(paths.filter((p) => /^(test|bench|tools|src|examples|api|\.ci)\//.test(p))).toEqual([]);
  expect(paths.filter((p) => !p.startsWith("dist/"))).toEqual(
    expect.arrayContaining(["package.json", "README.md"]),
  );
  expect(paths.filter((p) => !p.startsWith("dist/")).sort()).toEqual([
    "README.md",
    "package.json",
    "plugin/pulumi-analyzer-policy-vmapi",
    "plugin/pulumi-converter-vmapi",
    "plugin/pulumi-resource-vmapi",
    "plugin/schema.json",
  ]);
  expect(paths).toContain("dist/provider/native/main.js");
  expect(paths).toContain("dist/terraform/converterMain.js");
  expect(paths).toContain("dist/policy/analyzerMain.js");
  // The emulator's web console, built; its sources stay home.
  expect(paths).toEqual(
    expect.arrayContaining([
      "dist/console/index.html",
      "dist/console/console.js",
      "dist/console/console.css",
    ]),
  );
  expect(paths.filter((p) => p.startsWith("console/"))).toEqual([]);
});

describe.each([LOWEST, NEWEST])("a project with @pulumi/pulumi %s", (sdk) => {
  let project: string;

  beforeAll(async () => {
    project = path.join(work, `project-${sdk}`);
    fs.mkdirSync(project);
    for (const file of ["Pulumi.yaml", "index.ts"])
      fs.copyFileSync(path.join(REPO, "examples", "quickstart", file), path.join(project, file));
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "user-project", private: true }, null, 2),
    );
    await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        path.join(work, packed.filename),
        `@pulumi/pulumi@${sdk}`,
        "typescript@5",
        "@types/node@20",
      ],
      { cwd: project, maxBuffer: 16 * 1024 * 1024 },
    );
  });

  test("one copy of the SDK, the project's own version", () => {
    const copies: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        const full = path.join(dir, entry.name);
        if (full.endsWith(path.join("node_modules", "@pulumi", "pulumi"))) copies.push(full);
        else walk(full);
      }
    };
    walk(path.join(project, "node_modules"));
    expect(copies).toEqual([path.join(project, "node_modules", "@pulumi", "pulumi")]);
    const installed = JSON.parse(fs.readFileSync(path.join(copies[0], "package.json"), "utf8"));
    expect(installed.version).toBe(sdk);
  });

  test("quickstart through the real engine: up, preview with no changes, destroy", async () => {
    const workspace = new EngineWorkspace();
    const stack = await EngineStack.create(workspace, project, connectionConfig(emu, emu.keys.individual));
    try {
      expectExit(await stack.up());
      const machines = liveMachines(await emu.control.state()).filter((m) =>
        String(m.name).startsWith("trainer"),
      );
      expect(machines).toHaveLength(1);
      expectExit(await stack.preview("--expect-no-changes"));
      expectExit(await stack.destroy());
      expect(
        liveMachines(await emu.control.state()).filter((m) => String(m.name).startsWith("trainer")),
      ).toEqual([]);
    } finally {
      await stack.remove();
      workspace.dispose();
    }
  });

  test("the YAML quickstart on the installed plugin (path: node_modules/pulumi-vmapi/plugin): up, preview with no changes, destroy", async () => {
    const launcher = path.join(project, "node_modules", "pulumi-vmapi", "plugin", "pulumi-resource-vmapi");
    expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
    // A folder of its own beside the Node project, with that project's node_modules, as a YAML
    // project that ran `npm install pulumi-vmapi @pulumi/pulumi` has.
    const yamlProject = path.join(work, `yaml-${sdk}`);
    fs.mkdirSync(yamlProject);
    fs.symlinkSync(path.join(project, "node_modules"), path.join(yamlProject, "node_modules"));
    // The example has no plugins: section (the plugin installed as Pulumi installs plugins); a
    // TypeScript team's YAML program names the package's folder instead, as docs/plugin.md shows.
    const program = fs.readFileSync(path.join(REPO, "examples", "yaml", "Pulumi.yaml"), "utf8");
    expect(program).toContain("runtime: yaml\n");
    expect(program).not.toMatch(/^plugins:/m);
    const plugins =
      "plugins:\n  providers:\n    - name: vmapi\n      path: node_modules/pulumi-vmapi/plugin\n";
    fs.writeFileSync(
      path.join(yamlProject, "Pulumi.yaml"),
      program.replace("runtime: yaml\n", `runtime: yaml\n${plugins}`),
    );
    const workspace = new EngineWorkspace();
    const stack = await EngineStack.create(
      workspace,
      yamlProject,
      connectionConfig(emu, emu.keys.individual),
    );
    const mine = async () =>
      liveMachines(await emu.control.state()).filter((m) => String(m.name).startsWith("trainer-"));
    try {
      expectExit(await stack.up());
      const outputs = await stack.outputs();
      expect(await mine()).toEqual([expect.objectContaining({ id: outputs.machineId, state: "ready" })]);
      expectExit(await stack.preview("--expect-no-changes"));
      expectExit(await stack.destroy());
      expect(await mine()).toEqual([]);
    } finally {
      await stack.remove();
      workspace.dispose();
    }
  });

  test("npx vmapi-emulator --help from the project", async () => {
    const { stdout } = await run("npx", ["--no-install", "vmapi-emulator", "--help"], { cwd: project });
    expect(stdout).toMatch(/--time-scale/);
    expect(stdout).toMatch(/--port/);
  });

  test("the installed emulator serves its web console from the package (no build, no network)", async () => {
    const cli = path.join(project, "node_modules", "pulumi-vmapi", "dist", "emulator", "cli.js");
    const child = spawn(process.execPath, [cli, "--port", "0"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const ready = await readyLine(child);
      for (const file of ["", "console.js", "console.css"]) {
        const answer = await fetch(`${ready.console}${file}`);
        expect([file, answer.status]).toEqual([file, 200]);
      }
    } finally {
      child.kill("SIGTERM");
    }
  });
});
