/**
 * `diff` as data: each input says how a change to it is applied.
 * `update` applies exactly the rows that `diff` reports; a test walks every row.
 */
import type * as pulumi from "@pulumi/pulumi";
import { UNKNOWN } from "./unknown";

/** How a change to one input is applied. */
export type DiffAction =
  | "update" // in place, through the API's update call
  | "power" // in place, through start/stop
  | "replace" // a new resource, then the old one is deleted
  | "none"; // a setting of the provider alone (e.g. a timeout): stored, nothing to call

export type DiffTable<K extends string> = Readonly<Record<K, DiffAction>>;

/** Inputs whose new value differs from the old one (an unknown value counts as a change). */
export function changedKeys<K extends string>(
  table: DiffTable<K>,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): K[] {
  return differingKeys(Object.keys(table) as K[], olds, news);
}

/** Those of `keys` whose new value differs from the old one (an unknown value counts as a change). */
export function differingKeys<K extends string>(
  keys: readonly K[],
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): K[] {
  return keys.filter((key) => !sameValue(olds[key], news[key]));
}

/** The engine's view of a diff, computed from the table. */
export function diffFromTable<K extends string>(
  table: DiffTable<K>,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): pulumi.dynamic.DiffResult {
  const changed = changedKeys(table, olds, news);
  const replaces = changed.filter((key) => table[key] === "replace");
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === UNKNOWN || b === UNKNOWN) return false;
  // The same value (most keys of most diffs): equal as below, without writing it out twice.
  if (a === b) return true;
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

// undefined and null both mean "not set"; object keys compare in sorted order.
function normalize(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(entries.map(([k, v]) => [k, normalize(v)]));
  }
  return value;
}
