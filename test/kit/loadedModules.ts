/**
 * Which of the repository's files a probe has loaded: `probe` (lines of JavaScript run in the
 * repository's folder as the npm package runs its TypeScript, under ts-node) writes
 * `LOADED <JSON of require.cache's keys>` on a line of stderr when it wants them listed. The tests
 * of what a plugin loads before it answers use it.
 */
import { spawnSync } from "child_process";
import * as path from "path";

const REPO = path.resolve(__dirname, "..", "..");

/** The JavaScript that writes the LOADED line. */
export const WRITE_LOADED =
  "process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n');";

/** The files (relative to the repository) that `probe` had loaded when it wrote its LOADED line. */
export function loadedModules(probe: readonly string[]): string[] {
  const run = spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", probe.join("\n")], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, TS_NODE_PROJECT: path.join(REPO, "tsconfig.json") },
  });
  const line = run.stderr.split("\n").find((l) => l.startsWith("LOADED "));
  if (!line) throw new Error(`the probe listed no modules: ${run.stderr}`);
  return (JSON.parse(line.slice("LOADED ".length)) as string[]).map((file) => path.relative(REPO, file));
}
