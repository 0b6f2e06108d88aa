// The order jest's two workers take the test files in: longest first, by the times of a whole
// run recorded in test/durations.json (`node tools/ci/durations.js RESULTS.json` writes it), so
// the real-engine files that take minutes start at once and the workers finish together. Jest's
// own order needs its cache of earlier runs, which a fresh clone (as CI's) does not have: there it
// would start by file size and leave the longest files for last. A file the record does not
// know yet goes by jest's own estimate, after the known ones of its size.
const fs = require("fs");
const path = require("path");
const Sequencer = require("@jest/test-sequencer").default;

const RECORD = path.join(__dirname, "durations.json");
const ROOT = path.resolve(__dirname, "..");

/** Seconds per file (relative to the repository), from the record; empty when there is none. */
function recorded() {
  try {
    return JSON.parse(fs.readFileSync(RECORD, "utf8"));
  } catch {
    return {};
  }
}

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = recorded();
    const known = (test) => seconds[path.relative(ROOT, test.path).split(path.sep).join("/")];
    return [...tests].sort((a, b) => {
      const [x, y] = [known(a), known(b)];
      if (x !== undefined && y !== undefined) return y - x;
      if (x !== undefined) return -1;
      if (y !== undefined) return 1;
      return fs.statSync(b.path).size - fs.statSync(a.path).size;
    });
  }
}

module.exports = LongestFirst;
