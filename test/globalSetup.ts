/**
 * Once before every jest run: compile src/ into dist/ (incremental, so a fresh build costs a
 * second or two) and build the console's page into dist/console (a fraction of a second) so the provider the real engine loads is the code under test, never a stale
 * build; make sure the `pulumi` CLI exists (built into its cache the first time: CONTRIBUTING.md,
 * "Built once", says how long) and say which CLI and SDK the run uses; and link the package into node_modules for the programs.
 */
import { execFileSync } from "child_process";
import * as path from "path";

const REPO = path.resolve(__dirname, "..");

export default function globalSetup(): void {
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: REPO,
    stdio: "inherit",
  });
  // The emulator serves the console's page from dist/console (npm run build's second step).
  (require(path.join(REPO, "tools", "consoleBuild.js")) as { buildConsole: () => number }).buildConsole();
  const cli = execFileSync("bash", [path.join(REPO, "tools", "pulumi-cli", "build.sh")], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  }).trim();
  // Which engine and SDK this run proves things on (.ci/run runs the real-engine tests twice).
  const cliVersion = execFileSync(cli, ["version"], { encoding: "utf8" }).trim();
  const sdk = (
    require(require.resolve("@pulumi/pulumi/package.json", { paths: [REPO] })) as { version: string }
  ).version;
  console.log(`\nreal-engine tests: pulumi CLI ${cliVersion} (${cli}), @pulumi/pulumi ${sdk}`);
  (require(path.join(REPO, "tools", "linkSelf.js")) as { linkSelf: () => void }).linkSelf();
}
