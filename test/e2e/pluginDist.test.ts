/**
 * The checks `npm run plugin:dist` (tools/plugin/dist.sh) makes before it packs a release tarball:
 * each executable is started as the engine starts an installed plugin, with no node on PATH, and
 * must answer GetPluginInfo and GetSchema, then CheckConfig and Configure
 * (tools/plugin/smokeTest.ts); the linux-arm64 one, built on this amd64 machine (its snapshot and
 * code cache made by the arm64 Node build under emulation), runs under Debian's qemu-user-static on
 * the arm64 C and C++ libraries of Debian's cross packages. An executable that does not answer, or
 * an arm64 Node build that does not run, stops the build, and no tarball is made.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { assetName, hostArch, pluginVersion, releaseAsset } from "../../tools/plugin/releaseAssets";
import { askExecutable } from "../../tools/plugin/smokeTest";
import { useTempDirs } from "../kit/tempDirs";
import { REPO } from "./support/cli";

/** A first build fetches the arm64 Node build (27 MB) and writes two 128 MB executables. */
jest.setTimeout(10 * 60_000);

const NODE_VERSION = "22.23.3";
const DIST = path.join(REPO, "tools", "plugin", "dist.sh");
/** How an arm64 executable runs on this amd64 machine: what dist.sh runs it with. */
const ARM64_EMULATOR =
  hostArch() === "arm64" ? [] : ["/usr/bin/qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu"];

const tempDir = useTempDirs();

test("dist.sh --arch arm64 → the linux-arm64 tarball's executable, under qemu-user-static with no node on PATH, answers GetPluginInfo with package.json's version and GetSchema with plugin/schema.json", async () => {
  const unpacked = tempDir();
  expect(spawnSync("tar", ["-xzf", releaseAsset("arm64"), "-C", unpacked]).status).toBe(0);

  const answers = await askExecutable([...ARM64_EMULATOR, path.join(unpacked, "pulumi-resource-vmapi")]);

  expect(answers.version).toBe(pluginVersion());
  expect(answers.schema).toEqual(
    JSON.parse(fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8")),
  );
});

test("dist.sh --arch arm64 on an arm64 Node build that does not run → exits 1 when that build makes its snapshot, with what the emulator said; no tarball", () => {
  // A cache whose arm64 Node build is the host's x64 one: the emulator refuses it, and dist.sh
  // runs it (under the emulator) to make the executable's snapshot and code cache.
  const cache = tempDir();
  const hostNodeBin = spawnSync("bash", [path.join(REPO, "tools", "node", "install.sh"), NODE_VERSION], {
    encoding: "utf8",
  }).stdout.trim();
  fs.symlinkSync(path.dirname(hostNodeBin), path.join(cache, `node-${NODE_VERSION}`));
  const arm64 = path.join(cache, `node-${NODE_VERSION}-linux-arm64`);
  fs.mkdirSync(path.join(arm64, "bin"), { recursive: true });
  fs.symlinkSync(path.join(hostNodeBin, "node"), path.join(arm64, "bin", "node"));
  fs.symlinkSync(path.join(path.dirname(hostNodeBin), "LICENSE"), path.join(arm64, "LICENSE"));
  const release = tempDir();

  const run = spawnSync("bash", [DIST, "--arch", "arm64"], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, VMAPI_CACHE_DIR: cache, VMAPI_RELEASE_DIR: release },
  });

  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/codeCache: .*--build-snapshot .*start\.js exited \d+:/);
  expect(run.stderr).toContain("Invalid ELF image for this architecture");
  expect(fs.existsSync(path.join(release, assetName(pluginVersion(), "arm64")))).toBe(false);
});
