/**
 * An implementation's diff as the engine's `DiffResponse` wants it from a native plugin: which
 * inputs change (`diffs`), each with its kind (`detailedDiff`: added, deleted, updated, or the same
 * forcing a replacement), so `pulumi preview --diff` shows which input changes and which one
 * forces a replace, and the engine can apply `replaceOnChanges` to the inputs a program names.
 */

/** The kinds of a property's change (pulumirpc.PropertyDiff.Kind). */
export const DiffKind = {
  ADD: 0,
  ADD_REPLACE: 1,
  DELETE: 2,
  DELETE_REPLACE: 3,
  UPDATE: 4,
  UPDATE_REPLACE: 5,
} as const;

/** What an implementation's diff says. */
export interface ImplementationDiff {
  changes?: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
  /** The inputs that change, when the implementation names them (else: every differing one). */
  changed?: string[];
}

/** One property's change. */
export interface PropertyChange {
  kind: (typeof DiffKind)[keyof typeof DiffKind];
  inputDiff: boolean;
}

/** The detailed diff: every changed input by name, and whether the whole changes. */
export interface DetailedDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
  detailedDiff: Record<string, PropertyChange>;
}

/** The detailed diff of `diff` between the stored inputs `olds` and the new `news`. */
export function detailedDiff(
  diff: ImplementationDiff,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): DetailedDiff {
  const replaces = diff.replaces ?? [];
  const changed = diff.changed ?? differing(olds, news);
  const keys = [...new Set([...changed, ...replaces])].filter((k) => !k.startsWith("__")).sort();
  const detailed: Record<string, PropertyChange> = {};
  for (const key of keys) {
    const replace = replaces.includes(key);
    const kind =
      olds[key] === undefined
        ? replace
          ? DiffKind.ADD_REPLACE
          : DiffKind.ADD
        : news[key] === undefined
          ? replace
            ? DiffKind.DELETE_REPLACE
            : DiffKind.DELETE
          : replace
            ? DiffKind.UPDATE_REPLACE
            : DiffKind.UPDATE;
    detailed[key] = { kind, inputDiff: true };
  }
  return {
    changes: diff.changes ?? keys.length > 0,
    replaces: replaces.filter((k) => !k.startsWith("__")),
    deleteBeforeReplace: diff.deleteBeforeReplace ?? false,
    diffs: keys,
    detailedDiff: detailed,
  };
}

/** Input keys (not the internal `__` ones) whose values differ. */
function differing(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
}
