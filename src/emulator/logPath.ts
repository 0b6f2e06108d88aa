/**
 * The path a request log line shows. A known route is logged as its template
 * (`/machines/{machineId}/start`), so ids never reach the log. Any other path is the caller's
 * free text and may hold a key pasted in the wrong place: its segments are logged only when they
 * are words of the route table or short plain words; anything key-like, encoded or overlong is
 * replaced by a placeholder.
 */

/** Segments longer than this are never logged as they are. */
const MAX_SEGMENT = 32;
/** A plain word: letters, `_`, `-` and `.`; no digits, so ids and most tokens do not qualify. */
const PLAIN_WORD = /^[A-Za-z_][A-Za-z_.-]*$/;

/** What the log may show of a path that matched no route. */
export function loggablePath(
  pathname: string,
  routeWords: ReadonlySet<string>,
  isSecret: (segment: string) => boolean,
): string {
  return pathname
    .split("/")
    .map((segment) => loggableSegment(segment, routeWords, isSecret))
    .join("/");
}

function loggableSegment(
  segment: string,
  routeWords: ReadonlySet<string>,
  isSecret: (segment: string) => boolean,
): string {
  if (segment === "" || routeWords.has(segment)) return segment;
  if (segment.length > MAX_SEGMENT) return `{${segment.length} chars}`;
  if (isSecret(segment) || isSecret(decoded(segment))) return "{key}";
  return PLAIN_WORD.test(segment) ? segment : "{…}";
}

/** The literal segments of route templates (`machines`, `getMachines`, `_emulator`, ...). */
export function routeWords(templates: readonly string[]): Set<string> {
  return new Set(templates.flatMap((t) => t.split("/")).filter((s) => s !== "" && !s.startsWith("{")));
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
