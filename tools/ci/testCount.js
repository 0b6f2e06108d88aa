// The closing line of `.ci/run`: the sum of every jest run's results, `N passed, N failed`
// (`, N skipped` after it when any were), the one line CI reads to know what ran. Each jest run
// writes its results with `--json --outputFile=FILE`; this reads those files and nothing else, so
// what a build, the fuzz run or npm prints cannot stand for a count.
//
//   node tools/ci/testCount.js FILE...
//
// Prints the line and exits 0, or names the file that is missing or is not a jest result and
// exits 1: a run that should have written its results and did not has not proven anything.
const fs = require("fs");

/**
 * @typedef {{ passed: number, failed: number, skipped: number }} Count
 */

/**
 * The count of one jest result (`jest --json`). A test file that failed outside its tests (it did
 * not compile, its module threw, a hook failed before any test) counts as one failure, and so does
 * a run jest calls unsuccessful with no failure counted, so a broken run can never read as green.
 * @param {unknown} result
 * @param {string} file where it came from, for the error
 * @returns {Count}
 */
function countOf(result, file) {
  const r = /** @type {Record<string, unknown>} */ (result);
  const numbers = [
    "numPassedTests",
    "numFailedTests",
    "numPendingTests",
    "numTodoTests",
    "numRuntimeErrorTestSuites",
  ];
  if (r === null || typeof r !== "object" || numbers.some((key) => typeof r[key] !== "number"))
    throw new Error(`${file} is not a jest result (jest --json): it lacks ${numbers.join(", ")}`);
  const n = (/** @type {string} */ key) => /** @type {number} */ (r[key]);
  let failed = n("numFailedTests") + n("numRuntimeErrorTestSuites");
  if (r.success === false && failed === 0) failed = 1;
  return { passed: n("numPassedTests"), failed, skipped: n("numPendingTests") + n("numTodoTests") };
}

/**
 * The sum of the jest results in `files`; throws naming the first file that is missing,
 * unreadable or not a jest result, and when no file is given.
 * @param {string[]} files
 * @returns {Count}
 */
function countFiles(files) {
  if (files.length === 0) throw new Error("no jest result file given");
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const file of files) {
    let text;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      throw new Error(`cannot read the jest result ${file}: ${/** @type {Error} */ (err).message}`);
    }
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${file} is not a jest result (jest --json): not JSON`);
    }
    const count = countOf(parsed, file);
    total.passed += count.passed;
    total.failed += count.failed;
    total.skipped += count.skipped;
  }
  return total;
}

/**
 * `N passed, N failed`, with `, N skipped` when any were.
 * @param {Count} count
 */
function closingLine(count) {
  const line = `${count.passed} passed, ${count.failed} failed`;
  return count.skipped > 0 ? `${line}, ${count.skipped} skipped` : line;
}

module.exports = { countOf, countFiles, closingLine };

if (require.main === module) {
  try {
    console.log(closingLine(countFiles(process.argv.slice(2))));
  } catch (err) {
    console.error(`testCount: ${/** @type {Error} */ (err).message}`);
    process.exit(1);
  }
}
