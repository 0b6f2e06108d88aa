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
