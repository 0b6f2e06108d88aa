/**
 * An implementation's diff as the engine's detailed diff (src/provider/native/detailedDiff.ts):
 * every changed input by name with its kind, the replacing ones as *_REPLACE, never an internal
 * `__` input, so `preview --diff` names what changes and the engine can apply `replaceOnChanges`.
 */
import { DiffKind, detailedDiff } from "../../../../src/provider/native/detailedDiff";

const update = { kind: DiffKind.UPDATE, inputDiff: true };

test("detailedDiff: no `changed` given → every differing input, by kind: added, deleted, updated", () => {
  const diff = detailedDiff({}, { a: 1, b: 2, c: [1] }, { a: 1, c: [2], d: "new" });
  expect(diff).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
    diffs: ["b", "c", "d"],
    detailedDiff: {
      b: { kind: DiffKind.DELETE, inputDiff: true },
      c: update,
      d: { kind: DiffKind.ADD, inputDiff: true },
    },
  });
});

test("detailedDiff: replacing inputs → *_REPLACE kinds, listed in replaces, also when not among `changed`", () => {
  const diff = detailedDiff(
    { changes: true, replaces: ["region", "size", "network"], changed: ["size", "name"] },
    { size: 50, name: "a", network: "n1" },
    { size: 100, name: "b", region: "Europe (AMS1)" },
  );
  expect(diff.diffs).toEqual(["name", "network", "region", "size"]);
  expect(diff.replaces).toEqual(["region", "size", "network"]);
  expect(diff.detailedDiff).toEqual({
    name: update,
    network: { kind: DiffKind.DELETE_REPLACE, inputDiff: true },
    region: { kind: DiffKind.ADD_REPLACE, inputDiff: true },
    size: { kind: DiffKind.UPDATE_REPLACE, inputDiff: true },
  });
});

test("detailedDiff: internal inputs (`__resourceName`, `__namingSeed`, ...) → never a diff nor a replace", () => {
  const diff = detailedDiff(
    { replaces: ["__namingSeed"] },
    { __resourceName: "a", __namingSeed: "s1", size: 50 },
    { __resourceName: "b", __namingSeed: "s2", size: 50 },
  );
  expect(diff).toMatchObject({ changes: false, replaces: [], diffs: [], detailedDiff: {} });
});

test("detailedDiff: the implementation's own `changes` and `deleteBeforeReplace` → kept as it says", () => {
  expect(detailedDiff({ changes: false, changed: [] }, { a: 1 }, { a: 2 })).toMatchObject({
    changes: false,
    diffs: [],
  });
  expect(detailedDiff({ replaces: ["a"], deleteBeforeReplace: true }, { a: 1 }, { a: 2 })).toMatchObject({
    changes: true,
    deleteBeforeReplace: true,
    detailedDiff: { a: { kind: DiffKind.UPDATE_REPLACE, inputDiff: true } },
  });
});
