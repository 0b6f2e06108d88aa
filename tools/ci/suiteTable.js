// The real-engine files' proofs and times, as CONTRIBUTING.md's "What the real-engine tests prove"
// lists them: every test of test/e2e, test/browser and test/package (its name says what it
// proves: "verb: condition → outcome"), and each file's time in a jest run, beside an earlier
// run's when given.
//
//   node tools/ci/suiteTable.js RESULTS.json [EARLIER.json | EARLIER.log]
//
// RESULTS.json: `jest --json --outputFile` (as .ci/run writes it). EARLIER: another such file, or
// a jest log whose lines read `PASS test/e2e/x.test.ts (12.3 s)`.
const fs = require("fs");
const path = require("path");
const { testPath } = require("./durations");

const REAL_ENGINE = /^test\/(e2e|browser|package)\//;

/** Per file (relative to the repository): its time in seconds and its tests' names, in order. */
function filesOf(result) {
  const files = new Map();
  for (const suite of result.testResults) {
    const file = testPath(suite.name);
    if (!REAL_ENGINE.test(file)) continue;
    const seconds = (suite.endTime - suite.startTime) / 1000;
    const tests = suite.assertionResults.map((a) => ({ name: a.fullName, status: a.status }));
    files.set(file, { seconds, tests });
  }
  return files;
}

/** Per file, its time in an earlier run (a result file or a log). */
function earlierTimes(file) {
  const text = fs.readFileSync(file, "utf8");
  if (file.endsWith(".json")) return new Map([...filesOf(JSON.parse(text))].map(([f, v]) => [f, v.seconds]));
  const times = new Map();
  for (const match of text.matchAll(/(?:PASS|FAIL) (test\/\S+\.test\.ts) \(([\d.]+) s\)/g))
    if (!times.has(match[1])) times.set(match[1], Number(match[2]));
  return times;
}

function table(resultFile, earlierFile) {
  const result = JSON.parse(fs.readFileSync(resultFile, "utf8"));
  const files = filesOf(result);
  const earlier = earlierFile ? earlierTimes(earlierFile) : new Map();
  const rows = [...files].sort(([a], [b]) => a.localeCompare(b));
  const out = [];
  const total = (values) => values.reduce((a, b) => a + b, 0);
  out.push(
    `| file | tests | ${earlierFile ? "before s | " : ""}s |`,
    `| --- | --- | ${earlierFile ? "--- | " : ""}--- |`,
  );
  for (const [file, { seconds, tests }] of rows) {
    const before = earlier.has(file) ? `${earlier.get(file).toFixed(0)} | ` : earlierFile ? "– | " : "";
    out.push(`| [${path.basename(file)}](${file}) | ${tests.length} | ${before}${seconds.toFixed(0)} |`);
  }
  const sum = total(rows.map(([, v]) => v.seconds));
  const sumBefore = total(rows.map(([f]) => earlier.get(f) ?? 0));
  out.push(
    `| all (${rows.length} files, one worker's time each) | ${total(rows.map(([, v]) => v.tests.length))} | ${earlierFile ? `${sumBefore.toFixed(0)} | ` : ""}${sum.toFixed(0)} |`,
  );
  out.push("");
  for (const [file, { tests }] of rows) {
    out.push(`- [${file}](${file}):`);
    for (const t of tests) out.push(`  - ${t.name}${t.status === "passed" ? "" : ` (${t.status})`}`);
  }
  return out.join("\n");
}

module.exports = { table };
if (require.main === module) {
  const [resultFile, earlierFile] = process.argv.slice(2);
  if (!resultFile) {
    console.error("usage: node tools/ci/suiteTable.js RESULTS.json [EARLIER.json | EARLIER.log]");
    process.exit(2);
  }
  console.log(table(resultFile, earlierFile));
}
