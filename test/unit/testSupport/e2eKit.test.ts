/**
 * The pure parts of the real-engine tests' kit (test/e2e/support/kit.ts): `until`'s bound on the
 * wall clock, and the listing of the example folders that the examples test checks. Importing
 * the kit starts nothing: its emulators start when a test file's hooks call for them.
 */
import * as fs from "fs";
import * as path from "path";
import { subfolders, until } from "../../e2e/support/kit";
import { useTempDirs } from "../../kit/tempDirs";

const tempDir = useTempDirs();

describe("until", () => {
  // Only the clocks are fake (Date and performance): until's 20 ms pauses stay real timers, and a
  // slow condition moves the clock as it would have taken that long, without the test waiting.
  beforeEach(() => {
    jest.useFakeTimers({
      doNotFake: [
        "hrtime",
        "nextTick",
        "queueMicrotask",
        "setImmediate",
        "clearImmediate",
        "setInterval",
        "clearInterval",
        "setTimeout",
        "clearTimeout",
      ],
    });
  });
  afterEach(() => jest.useRealTimers());

  /** A condition that takes `ms` of the clock per call and holds from call `holdsAt` on. */
  function slowCondition(ms: number, holdsAt = Infinity): jest.Mock<Promise<boolean>, []> {
    let calls = 0;
    return jest.fn(() => {
      jest.advanceTimersByTime(ms);
      return Promise.resolve(++calls >= holdsAt);
    });
  }

  test("until: a condition that takes 100 ms and never holds, limit 150 ms → rejects naming it after 2 calls, not after 150 ms of pauses", async () => {
    const condition = slowCondition(100);
    await expect(until(condition, "the slow thing", 150)).rejects.toThrow(
      "timed out waiting for the slow thing (150 ms)",
    );
    // By the pauses alone (20 ms each) it would have called it 9 times, 900 ms of the clock.
    expect(condition).toHaveBeenCalledTimes(2);
  });

  test("until: a condition that holds on its third call, within the limit → resolves after 3 calls", async () => {
    const condition = slowCondition(10, 3);
    await expect(until(condition, "the third call", 150)).resolves.toBeUndefined();
    expect(condition).toHaveBeenCalledTimes(3);
  });
});

describe("subfolders", () => {
  test("subfolders: a folder without the file → listed, marked as lacking it; plain files → not listed", () => {
    const root = tempDir("vmapi-subfolders-");
    for (const name of ["quickstart", "no-project", "another"]) fs.mkdirSync(path.join(root, name));
    fs.writeFileSync(path.join(root, "quickstart", "Pulumi.yaml"), "name: quickstart\n");
    fs.writeFileSync(path.join(root, "another", "Pulumi.yaml"), "name: another\n");
    fs.writeFileSync(path.join(root, "README.md"), "not a folder\n");
    expect(subfolders(root, "Pulumi.yaml")).toEqual([
      { name: "another", has: true },
      { name: "no-project", has: false },
      { name: "quickstart", has: true },
    ]);
  });

  test("subfolders: the file's name as a folder → not taken for the file", () => {
    const root = tempDir("vmapi-subfolders-");
    fs.mkdirSync(path.join(root, "odd", "Pulumi.yaml"), { recursive: true });
    expect(subfolders(root, "Pulumi.yaml")).toEqual([{ name: "odd", has: false }]);
  });
});
