/**
 * The plugin as its users install it, for the benchmarks: the release tarball of
 * `npm run plugin:dist` (built when missing or stale) installed by the real CLI's
 * `pulumi plugin install resource vmapi <version> --file` into a PULUMI_HOME; and the floor of the
 * plugin route, the no-op native provider in Go (bench/goNoop, built into the cache).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { pulumiCli } from "../tools/pulumi/main";
import { analyzerReleaseAsset, pluginVersion, releaseAsset } from "../tools/plugin/releaseAssets";

/** Installs the release into `pulumiHome`; returns the folder Pulumi installed it in. */
export function installReleasePlugin(pulumiHome: string): string {
  const tarball = releaseAsset();
  const version = pluginVersion();
  execFileSync(pulumiCli(), ["plugin", "install", "resource", "vmapi", version, "--file", tarball], {
    env: { ...process.env, PULUMI_HOME: pulumiHome, PULUMI_SKIP_UPDATE_CHECK: "true" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return path.join(pulumiHome, "plugins", `resource-vmapi-v${version}`);
}

/**
 * Installs the release's policy analyzer into `pulumiHome` (`pulumi plugin install analyzer
 * policy-vmapi`); returns its executable, what `--policy-pack` names.
 */
export function installReleaseAnalyzer(pulumiHome: string): string {
  const version = pluginVersion();
  execFileSync(
    pulumiCli(),
    ["plugin", "install", "analyzer", "policy-vmapi", version, "--file", analyzerReleaseAsset()],
    {
      env: { ...process.env, PULUMI_HOME: pulumiHome, PULUMI_SKIP_UPDATE_CHECK: "true" },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return path.join(
    pulumiHome,
    "plugins",
    `analyzer-policy-vmapi-v${version}`,
    "pulumi-analyzer-policy-vmapi",
  );
}

/** The Go no-op analyzer's executable (bench/goNoopAnalyzer/build.sh), the floor of a policy pack. */
export function goNoopAnalyzer(): string {
  const dir = execFileSync("bash", [path.join(__dirname, "goNoopAnalyzer", "build.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return path.join(dir, "pulumi-analyzer-policy-noop");
}

/** The folder holding the Go no-op provider as `pulumi-resource-vmapi` (bench/goNoop/build.sh). */
export function goNoopPluginDir(): string {
  return execFileSync("bash", [path.join(__dirname, "goNoop", "build.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}
