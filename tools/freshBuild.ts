/**
 * `dist/` as fresh as `src/`: the programs of this repository and the dynamic-provider plugin
 * both load the package from `dist/` (through node_modules/pulumi-vmapi), so a stale build would
 * run yesterday's provider. Compiling is skipped when no source is newer than the last build,
 * which a scan of modification times tells in milliseconds (an incremental `tsc` takes seconds).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const REPO = path.resolve(__dirname, "..");
const BUILD_INFO = path.join(REPO, "dist", ".tsbuildinfo");

/** The newest modification time of the files under `dir` (0 if none). */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether `src/` (or the build's config) changed since `dist/` was last compiled. */
export function buildIsStale(): boolean {
  if (!fs.existsSync(BUILD_INFO)) return true;
  const built = fs.statSync(BUILD_INFO).mtimeMs;
  const configs = ["tsconfig.json", "tsconfig.build.json"].map(
    (f) => fs.statSync(path.join(REPO, f)).mtimeMs,
  );
  return Math.max(newestUnder(path.join(REPO, "src")), ...configs) > built;
}

/** Compiles `dist/` when it is older than `src/`, and the console's page when older than `console/`; says so on stderr. */
export function ensureFreshBuild(): void {
  if (!fs.existsSync(path.join(REPO, "src"))) return;
  const page = require("./consoleBuild.js") as { consoleIsStale(): boolean; buildConsole(): number };
  if (page.consoleIsStale()) page.buildConsole();
  if (!buildIsStale()) return;
  process.stderr.write("compiling src/ into dist/ (it changed since the last build)\n");
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: REPO,
    stdio: "inherit",
  });
  // tsc leaves its build info alone when no output changed (a source touched, not edited).
  const now = new Date();
  fs.utimesSync(BUILD_INFO, now, now);
}
