/**
 * The plugin's release assets as tools/plugin/dist.sh makes them (the resource plugin's tarball and
 * the converter's, of each platform) (`npm run plugin:dist`), for the
 * tests and benchmarks that install the plugin the way its users do: their names, where they are,
 * and a call that builds them when they are missing or older than the code.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const REPO = path.resolve(__dirname, "..", "..");
const DIST_SCRIPT = path.join(__dirname, "dist.sh");

/** The folder dist.sh writes the tarballs into: the git-ignored release/, or VMAPI_RELEASE_DIR. */
export const RELEASE_DIR = process.env.VMAPI_RELEASE_DIR ?? path.join(REPO, "release");

/** The platforms a release is built for, as Pulumi names their architectures. */
export type ReleaseArch = "amd64" | "arm64";

/** This machine's architecture, as Pulumi names it in an asset's name. */
export function hostArch(): ReleaseArch {
  if (process.arch === "x64") return "amd64";
  if (process.arch === "arm64") return "arm64";
  throw new Error(`no release of the plugin for ${process.platform}/${process.arch}`);
}

/** The version of the plugin a release of this repository carries: package.json's. */
export function pluginVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string })
    .version;
}

/** The file name the engine downloads, `pulumi-resource-vmapi-v<version>-linux-<arch>.tar.gz`. */
export function assetName(version: string, arch: ReleaseArch): string {
  return `pulumi-resource-vmapi-v${version}-linux-${arch}.tar.gz`;
}

/**
 * The converter's tarball, `pulumi-converter-vmapi-v<version>-linux-<arch>.tar.gz`
 * (`pulumi plugin install converter vmapi <version> --file ...`): the same executable, named
 * `pulumi-converter-vmapi`.
 */
export function converterAssetName(version: string, arch: ReleaseArch): string {
  return `pulumi-converter-vmapi-v${version}-linux-${arch}.tar.gz`;
}

/**
 * The policy pack's analyzer tarball, `pulumi-analyzer-policy-vmapi-v<version>-linux-<arch>.tar.gz`
 * (`pulumi plugin install analyzer policy-vmapi <version> --file ...`): the same executable, named
 * `pulumi-analyzer-policy-vmapi`.
 */
export function analyzerAssetName(version: string, arch: ReleaseArch): string {
  return `pulumi-analyzer-policy-vmapi-v${version}-linux-${arch}.tar.gz`;
}

/**
 * The tarball of `arch` (the host's by default), built by dist.sh when missing or stale: about a
 * minute the first time on a 2-core machine, the bundle's few seconds when it is up to date.
 */
export function releaseAsset(arch: ReleaseArch = hostArch()): string {
  return builtAsset(arch, assetName(pluginVersion(), arch));
}

/** The converter's tarball of `arch` (the host's by default), built with the resource plugin's. */
export function converterReleaseAsset(arch: ReleaseArch = hostArch()): string {
  return builtAsset(arch, converterAssetName(pluginVersion(), arch));
}

/** The analyzer's tarball of `arch` (the host's by default), built with the resource plugin's. */
export function analyzerReleaseAsset(arch: ReleaseArch = hostArch()): string {
  return builtAsset(arch, analyzerAssetName(pluginVersion(), arch));
}

/** `name` in the release folder once dist.sh has built (or kept) `arch`'s tarballs. */
function builtAsset(arch: ReleaseArch, name: string): string {
  const run = spawnSync("bash", [DIST_SCRIPT, "--arch", arch], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.status !== 0) throw new Error(`${DIST_SCRIPT} --arch ${arch} exited ${run.status}`);
  const asset = path.join(RELEASE_DIR, name);
  if (!fs.existsSync(asset)) throw new Error(`${DIST_SCRIPT} made no ${asset}`);
  return asset;
}
