/**
 * Auto-naming: a resource without an explicit name gets `<resource name>-<7 random chars>`.
 * `check` keeps the old name while the resource exists; the engine calls `check` without olds
 * for a replacement, which yields a fresh name, so a replacement never collides with the old one.
 */
import * as crypto from "crypto";

/** The name to use: declared, else the one already given, else a new one. */
export function autoName(
  declared: unknown,
  olds: Record<string, unknown>,
  resourceName: unknown,
  random: () => string = randomSuffix,
): string | undefined {
  if (typeof declared === "string") return declared;
  if (typeof olds.name === "string" && olds.__resourceName === resourceName && olds.__autoNamed === true)
    return olds.name;
  if (typeof resourceName !== "string") return undefined;
  return `${resourceName}-${random()}`;
}

function randomSuffix(): string {
  return crypto
    .randomBytes(8)
    .toString("base64url")
    .replace(/[^a-z0-9]/gi, "")
    .slice(0, 7)
    .toLowerCase();
}

/**
 * `news` with the auto-name applied: when no name is declared, the name the resource already
 * has, or a new one, marked `__autoNamed` so a later check keeps it.
 */
export function withAutoName(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Record<string, unknown> {
  const inputs: Record<string, unknown> = { ...news };
  const name = autoName(news.name, olds, news.__resourceName);
  if (news.name === undefined && name !== undefined) Object.assign(inputs, { name, __autoNamed: true });
  return inputs;
}
