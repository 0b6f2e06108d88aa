/**
 * `.ci/run`'s one EXIT trap (tools/ci/exit.sh): however the run ends, the background build's whole
 * process group is gone, its temporary files are removed, and the last line is the closing count
 * of the jest runs it started; a jest run that left no results fails the run.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { useTempDirs } from "../../kit/tempDirs";
import { isRunning } from "../../e2e/support/processes";

const REPO = path.resolve(__dirname, "..", "..", "..");
const LIB = path.join(REPO, "tools", "ci", "exit.sh");

const tempDir = useTempDirs();
let dir: string;
beforeEach(() => {
  dir = tempDir("vmapi-ci-exit-");
});

/** A stand-in for jest: writes `json` to the file its --outputFile names (nothing when empty). */
function fakeJest(json: object | undefined): string {
  const file = path.join(dir, `jest-${Math.random().toString(36).slice(2)}.sh`);
  const write = json
    ? `for a in "$@"; do case "$a" in --outputFile=*) printf '%s' '${JSON.stringify(json)}' > "\${a#--outputFile=}";; esac; done`
    : "true";
  fs.writeFileSync(file, `#!/bin/sh\n${write}\n`, { mode: 0o755 });
  return file;
}

/** Runs `body` as a script that sources the library under set -euo pipefail. */
function runScript(body: string) {
  const script = path.join(dir, "run.sh");
  fs.writeFileSync(script, `set -euo pipefail\nsource ${LIB}\n${body}\n`);
  return spawnSync("bash", [script], {
    encoding: "utf8",
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, TMPDIR: dir },
    timeout: 60_000,
  });
}

/** Until `pids` have ended (a signal is delivered, not awaited), for at most a second. */
function whetherAlive(pids: number[]): boolean[] {
  const deadline = Date.now() + 1000;
  while (pids.some(isRunning) && Date.now() < deadline) spawnSync("sleep", ["0.02"]);
  return pids.map(isRunning);
}

const RESULT = {
  numPassedTests: 3,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  numRuntimeErrorTestSuites: 0,
  success: true,
};

test("early exit: a failing step after a jest run → background group killed, temp files gone, the count last", () => {
  const run = runScript(`
ci_temp held
echo "$held" > ${dir}/temp-path
ci_background "${dir}/bg.out" bash -c 'sleep 300 & echo $! > ${dir}/grandchild; wait'
echo "$CI_BACKGROUND_PID" > ${dir}/group
until [ -s ${dir}/grandchild ]; do sleep 0.01; done
ci_at_exit 'echo undone'
ci_jest first ${fakeJest(RESULT)}
ci_jest second ${fakeJest({ ...RESULT, numPassedTests: 4, numFailedTests: 1, success: false })}
false
echo never`);
  expect(run.status).toBe(1);
  const lines = run.stdout.trim().split("\n");
  expect(lines.at(-1)).toBe("7 passed, 1 failed");
  expect(run.stdout).not.toContain("never");
  expect(run.stderr).toContain("undone");
  const group = Number(fs.readFileSync(path.join(dir, "group"), "utf8"));
  const grandchild = Number(fs.readFileSync(path.join(dir, "grandchild"), "utf8"));
  expect(whetherAlive([group, grandchild])).toEqual([false, false]);
  expect(fs.existsSync(fs.readFileSync(path.join(dir, "temp-path"), "utf8").trim())).toBe(false);
  expect(fs.existsSync(path.join(dir, "bg.out"))).toBe(false);
  expect(fs.readdirSync(dir).filter((f) => f.startsWith("vmapi-ci"))).toEqual([]);
});

test("a jest run that wrote no results → the run fails, no count printed", () => {
  const run = runScript(`ci_jest first ${fakeJest(RESULT)}\nci_jest crashed ${fakeJest(undefined)}`);
  expect(run.status).toBe(1);
  expect(run.stdout).not.toMatch(/passed/);
  expect(run.stderr).toMatch(/cannot read the jest result .*crashed\.json/);
});

test("a clean end: exit 0 and the count as the last line; no jest run → no count", () => {
  const run = runScript(`ci_jest only ${fakeJest(RESULT)}\necho after`);
  expect(run.status).toBe(0);
  expect(run.stdout.trim().split("\n")).toEqual(["after", "3 passed, 0 failed"]);
  const none = runScript("echo checks only");
  expect([none.status, none.stdout]).toEqual([0, "checks only\n"]);
});

test(".ci/run: sources the library and sets no trap of its own (a later trap would replace the library's)", () => {
  const ci = fs.readFileSync(path.join(REPO, ".ci", "run"), "utf8");
  expect(ci).toMatch(/^source tools\/ci\/exit\.sh$/m);
  expect(ci.split("\n").filter((line) => /^\s*trap\b/.test(line))).toEqual([]);
  // Every jest run goes through ci_jest, so its results are counted.
  const commands = ci.split("\n").filter((line) => !/^\s*(#|echo|ran\+=)/.test(line));
  const jestLines = commands.filter((line) => /\b(npx jest|npm test)\b/.test(line));
  expect(jestLines.length).toBeGreaterThan(0);
  for (const line of jestLines) expect(line).toMatch(/\bci_jest\b/);
});
