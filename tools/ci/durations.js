// Writes test/durations.json, the record test/sequencer.js orders the files by: each test file's
// seconds in a whole jest run (`jest --json --outputFile`, as .ci/run writes them).
//
//   node tools/ci/durations.js RESULTS.json
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..", "..");

/** A test file's path relative to its clone's root, wherever that clone was: from its last `test/`. */
function testPath(file) {
  const parts = file.split(path.sep);
  return parts.slice(parts.lastIndexOf("test")).join("/");
}
module.exports = { testPath };

if (require.main === module) {
  const [resultFile] = process.argv.slice(2);
  if (!resultFile) {
    console.error("usage: node tools/ci/durations.js RESULTS.json");
    process.exit(2);
  }
  const result = JSON.parse(fs.readFileSync(resultFile, "utf8"));
  const seconds = Object.fromEntries(
    result.testResults
      .map((suite) => [testPath(suite.name), (suite.endTime - suite.startTime) / 1000])
      .sort(([, a], [, b]) => b - a)
      .map(([file, s]) => [file, Math.round(s * 10) / 10]),
  );
  fs.writeFileSync(path.join(ROOT, "test", "durations.json"), `${JSON.stringify(seconds, null, 2)}\n`);
  console.log(`test/durations.json: ${Object.keys(seconds).length} files`);
}
