/**
 * What `npm run schema:check` says when a committed file is not what the code generates: the
 * schema's differing JSON paths, a page's stale reference blocks, or a generated module's lines
 * (a declaration missing from the registry's index shows as its import line).
 */
import { blockText } from "./referencePages";
import { SCHEMA_FILE } from "./sources";

/** What differs between the committed `actual` and the `expected` text of `file`, line by line. */
export function differences(file: string, actual: string | undefined, expected: string): string[] {
  if (actual === undefined) return ["missing"];
  if (file === SCHEMA_FILE) return jsonDifferences(safeParse(actual), JSON.parse(expected), "");
  if (file.endsWith(".ts")) return lineDifferences(actual, expected);
  const markers = [...expected.matchAll(/<!-- reference:([^ ]+) -->/g)].map((m) => m[1]);
  const stale = markers.filter((m) => blockText(actual, m) !== blockText(expected, m));
  if (stale.length === 0) return ["formatting outside the reference blocks (run prettier)"];
  return stale.map(
    (m) => `block reference:${m} is stale${blockText(actual, m) === undefined ? " (missing)" : ""}`,
  );
}

/** Paths where two JSON values differ: `resources.vmapi:index:Machine.inputProperties.size: added`. */
export function jsonDifferences(actual: unknown, expected: unknown, at: string): string[] {
  if (JSON.stringify(actual) === JSON.stringify(expected)) return [];
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObject(actual) || !isObject(expected)) {
    return [`${at || "(root)"}: ${brief(actual)} → ${brief(expected)}`];
  }
  const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])].sort();
  return keys.flatMap((key) => {
    const where = at ? `${at}.${key}` : key;
    if (!(key in expected)) return [`${where}: removed`];
    if (!(key in actual)) return [`${where}: added`];
    return jsonDifferences(actual[key], expected[key], where);
  });
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return "(not JSON)";
  }
}

/** The lines only one of two texts has: `+ line` the generator writes, `- line` it does not. */
function lineDifferences(actual: string, expected: string): string[] {
  const had = new Set(actual.split("\n"));
  const wanted = new Set(expected.split("\n"));
  const added = [...wanted].filter((line) => !had.has(line)).map((line) => `+ ${line}`);
  const dropped = [...had].filter((line) => !wanted.has(line)).map((line) => `- ${line}`);
  const lines = [...added, ...dropped];
  return lines.length > 0 ? lines : ["the same lines in another order"];
}
