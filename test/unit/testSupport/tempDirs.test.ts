/**
 * The tests' temporary folders (test/kit/tempDirs.ts): removed by jest's hooks whatever a test's
 * outcome, a test's own after it, a block's after the block. The order of the tests matters
 * here: each later one looks at what an earlier one left.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useTempDirs } from "../../kit/tempDirs";

const tempDir = useTempDirs();
let madeByFailing: string | undefined;
let madeByPassing: string | undefined;
let madeByBlock: string | undefined;

// test.failing passes only when its body fails: the folder is made on a path that fails.
test.failing(
  "tempDir: made in a test whose expect then fails → the test fails, its folder left to the hook",
  () => {
    madeByFailing = tempDir("vmapi-tempdirs-");
    fs.writeFileSync(path.join(madeByFailing, "left.txt"), "a file inside, too");
    expect(fs.existsSync(madeByFailing)).toBe(true);
    // The failure the hook must outlast: an expect that does not hold, before any line of cleanup.
    expect(fs.readdirSync(madeByFailing)).toEqual([]);
  },
);

test("tempDir: the failed test's folder → removed after that test, file and all", () => {
  expect(madeByFailing).toBeDefined();
  expect(fs.existsSync(madeByFailing!)).toBe(false);
});

test("tempDir: a prefix → a new empty folder under the system's temp folder, named by it", () => {
  madeByPassing = tempDir("vmapi-tempdirs-");
  expect(path.dirname(madeByPassing)).toBe(os.tmpdir());
  expect(path.basename(madeByPassing)).toMatch(/^vmapi-tempdirs-.{6}$/);
  expect(fs.readdirSync(madeByPassing)).toEqual([]);
  expect(tempDir("vmapi-tempdirs-")).not.toBe(madeByPassing);
});

test("tempDir: the passed test's folder → removed after that test as well", () => {
  expect(fs.existsSync(madeByPassing!)).toBe(false);
});

describe("a folder made in beforeAll", () => {
  const blockDir = useTempDirs();
  beforeAll(() => {
    madeByBlock = blockDir("vmapi-tempdirs-block-");
  });

  test("tempDir: made outside a test → still there for the block's first test", () => {
    fs.writeFileSync(path.join(madeByBlock!, "shared.txt"), "for the next test");
    expect(fs.existsSync(madeByBlock!)).toBe(true);
  });

  test("tempDir: made outside a test → kept between the block's tests", () => {
    expect(fs.readFileSync(path.join(madeByBlock!, "shared.txt"), "utf8")).toBe("for the next test");
  });
});

test("tempDir: made in a block's beforeAll → removed after the block's last test", () => {
  expect(madeByBlock).toBeDefined();
  expect(fs.existsSync(madeByBlock!)).toBe(false);
});
