/**
 * Temporary folders that a test file cannot leave behind: each is removed by a jest hook, which
 * runs whether the test passed, failed or threw, never by a line at the end of the test (a
 * failed expect before it would skip that line and leave the folder in the system's temp folder).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/**
 * Registers the hooks of a describe block (or of the file, at its top) and returns `tempDir`,
 * which makes a new empty folder under the system's temp folder, named `prefix` plus a random
 * tail. A folder made inside a test (its body, or a `beforeEach` declared after this call) is
 * removed after that test (`afterEach`); one made outside any test (`beforeAll`, the block's
 * body) after the block's last test (`afterAll`), so the tests between can share it. jest runs
 * a block's `afterEach` hooks in the order they are declared: one that still reads a test's
 * folder goes before this call.
 */
export function useTempDirs(): (prefix?: string) => string {
  const ofTheTest: string[] = [];
  const ofTheBlock: string[] = [];
  let inTest = false;
  const removeAll = (dirs: string[]) => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  };
  beforeEach(() => {
    inTest = true;
  });
  afterEach(() => {
    inTest = false;
    removeAll(ofTheTest);
  });
  afterAll(() => removeAll(ofTheBlock));
  return (prefix = "vmapi-test-") => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    (inTest ? ofTheTest : ofTheBlock).push(dir);
    return dir;
  };
}
