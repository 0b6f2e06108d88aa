/**
 * The real-engine tests' runner of a command line (test/e2e/support/cli.ts runCommand): a run past
 * its bound is ended whole, the processes it started included, as the CLI's language host and
 * plugins are; otherwise they outlive it and hold its pipes open, and the run never ends.
 */
import * as fs from "fs";
import * as path from "path";
import { runCommand } from "../../e2e/support/cli";
import { useTempDirs } from "../../kit/tempDirs";
import { isRunning } from "../../e2e/support/processes";

const tempDir = useTempDirs();
let dir: string;
beforeEach(() => {
  dir = tempDir("vmapi-run-command-");
});

test("runCommand: past its timeout → the command and the processes it started are killed, the run ends", async () => {
  const pidFile = path.join(dir, "grandchild");
  // A grandchild holding stdout open, as a plugin holds the CLI's: `sleep` outlives a killed shell.
  const script = `sleep 600 & echo $! > ${pidFile}; wait`;
  const started = Date.now();
  const run = await runCommand("sh", ["-c", script], { cwd: dir, env: process.env, timeoutMs: 300 });
  expect(run.code).toBe(128);
  const grandchild = Number(fs.readFileSync(pidFile, "utf8"));
  expect(isRunning(grandchild)).toBe(false);
  // Ended by the kill, not by the grandchild's own end (600 s): far below jest's bound.
  expect(Date.now() - started).toBeLessThan(20_000);
});
