/**
 * The closing line of `.ci/run` (tools/ci/testCount.js): the sum of the jest runs' results, which
 * is what CI reads to know what ran. A run that left no readable result must not read as green.
 */
import * as fs from "fs";
import * as path from "path";
import { spawnSync } from "child_process";
import { useTempDirs } from "../../kit/tempDirs";

const SCRIPT = path.resolve(__dirname, "..", "..", "..", "tools", "ci", "testCount.js");
const { countFiles, closingLine } = require(SCRIPT) as {
  countFiles: (files: string[]) => { passed: number; failed: number; skipped: number };
  closingLine: (count: { passed: number; failed: number; skipped: number }) => string;
};

const tempDir = useTempDirs();
let dir: string;
beforeEach(() => {
  dir = tempDir("vmapi-test-count-");
});

/** A jest --json result with these counts (the fields testCount reads). */
function result(name: string, counts: Partial<Record<string, number | boolean>>): string {
  const file = path.join(dir, `${name}.json`);
  const base = {
    numPassedTests: 0,
    numFailedTests: 0,
    numPendingTests: 0,
    numTodoTests: 0,
    numRuntimeErrorTestSuites: 0,
    success: true,
  };
  fs.writeFileSync(file, JSON.stringify({ ...base, ...counts, testResults: [] }));
  return file;
}

test("closing line: several runs → their sum, skipped only when any", () => {
  const a = result("a", { numPassedTests: 2000, numFailedTests: 0 });
  const b = result("b", { numPassedTests: 30, numFailedTests: 0 });
  expect(closingLine(countFiles([a, b]))).toBe("2030 passed, 0 failed");
  const c = result("c", { numPassedTests: 5, numPendingTests: 2, numTodoTests: 1 });
  expect(closingLine(countFiles([a, c]))).toBe("2005 passed, 0 failed, 3 skipped");
});

test("closing line: failed tests, a file that did not run, a run jest calls unsuccessful → counted as failures", () => {
  const failing = result("failing", { numPassedTests: 10, numFailedTests: 2, success: false });
  const broken = result("broken", { numPassedTests: 4, numRuntimeErrorTestSuites: 1, success: false });
  const unsuccessful = result("unsuccessful", { numPassedTests: 3, success: false });
  expect(closingLine(countFiles([failing, broken, unsuccessful]))).toBe("17 passed, 4 failed");
});

test("closing line: a missing, unreadable or foreign result file → an error naming it, no line", () => {
  const good = result("good", { numPassedTests: 1 });
  const missing = path.join(dir, "missing.json");
  expect(() => countFiles([good, missing])).toThrow(missing);
  const garbled = path.join(dir, "garbled.json");
  fs.writeFileSync(garbled, '{"numPassedTests": 3');
  expect(() => countFiles([garbled])).toThrow(`${garbled} is not a jest result`);
  const foreign = path.join(dir, "foreign.json");
  fs.writeFileSync(foreign, JSON.stringify({ passed: 3 }));
  expect(() => countFiles([foreign])).toThrow(`${foreign} is not a jest result`);
  expect(() => countFiles([])).toThrow("no jest result file given");
});

test("command: prints the line and exits 0; a missing file → exit 1, the file named, nothing on stdout", () => {
  const good = result("good", { numPassedTests: 7, numFailedTests: 1 });
  const ok = spawnSync(process.execPath, [SCRIPT, good], { encoding: "utf8" });
  expect([ok.status, ok.stdout]).toEqual([0, "7 passed, 1 failed\n"]);
  const missing = path.join(dir, "none.json");
  const bad = spawnSync(process.execPath, [SCRIPT, good, missing], { encoding: "utf8" });
  expect(bad.status).toBe(1);
  expect(bad.stdout).toBe("");
  expect(bad.stderr).toContain(missing);
});
