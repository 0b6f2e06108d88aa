/**
 * Once before every jest run: compile src/ into dist/ (incremental, so a fresh build costs a
 * second or two) so the provider the real engine loads is the code under test, never a stale
 * build; make sure the `pulumi` CLI exists (built into its cache the first time, about 10 minutes;
 * see tools/pulumi-cli/build.sh); and link the package into node_modules for the programs.
 */
import { execFileSync } from "child_process";
import * as path from "path";

const REPO = path.resolve(__dirname, "..");

export default function globalSetup(): void {
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: REPO,
    stdio: "inherit",
  });
  execFileSync("bash", [path.join(REPO, "tools", "pulumi-cli", "build.sh")], {
    cwd: REPO,
    stdio: ["ignore", "ignore", "inherit"],
  });
  (require(path.join(REPO, "tools", "linkSelf.js")) as { linkSelf: () => void }).linkSelf();
}
