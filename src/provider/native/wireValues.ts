/**
 * Property values as the engine sends them to a plugin that accepts secrets, and back. A secret
 * arrives as `{ <sig key>: <secret sig>, value }` (at any depth); an implementation works on plain
 * values, so the secrets are unwrapped and the top-level keys that held one remembered, and the
 * same keys are wrapped again in every answer (inputs of a check, outputs of a create, read or
 * update), so that no secret is ever stored in plain text. Values still unknown in a preview
 * arrive as the unknown sentinel, which the implementations know (shared/unknown.ts).
 */

/** The key and value that mark a secret on the wire (the SDK's `specialSigKey`, `specialSecretSig`). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A property bag without secret marks, and the top-level keys that held a secret. */
export interface PlainProps {
  props: Record<string, unknown>;
  secretKeys: Set<string>;
}

/** True when `value` is a wire secret. */
function isSecret(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

/**
 * `value` with every secret mark removed, `seen.secrets` counting the secrets met. A value that
 * holds no secret is answered as it is, not copied: the bags come fresh from the request's decoding,
 * and a Machine's state (its events a list of objects) was copied whole for every request.
 */
function unwrapped(value: unknown, seen: { secrets: number }): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (isSecret(value)) {
    seen.secrets++;
    return unwrapped(value.value, seen);
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const plain = unwrapped(value[i], seen);
      if (plain !== value[i]) (copy ??= value.slice())[i] = plain;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const plain = unwrapped(record[key], seen);
    if (plain !== record[key]) (copy ??= { ...record })[key] = plain;
  }
  return copy ?? value;
}

/** `value` with every secret mark removed. */
export function plainValue(value: unknown): unknown {
  return unwrapped(value, { secrets: 0 });
}

/**
 * The plain values of a bag from the engine, and which top-level keys held a secret; the keys
 * `dropped` answers true for are left out of both.
 */
export function fromWire(
  wire: Record<string, unknown> | undefined,
  dropped?: (key: string) => boolean,
): PlainProps {
  const secretKeys = new Set<string>();
  const props: Record<string, unknown> = {};
  if (wire === undefined || wire === null) return { props, secretKeys };
  const seen = { secrets: 0 };
  for (const key of Object.keys(wire)) {
    if (dropped?.(key)) continue;
    const before = seen.secrets;
    props[key] = unwrapped(wire[key], seen);
    if (seen.secrets > before) secretKeys.add(key);
  }
  return { props, secretKeys };
}

/**
 * A bag for the engine: `undefined` values left out (a Struct cannot carry them), and the value
 * of each of `secretKeys` marked secret.
 */
export function toWire(
  props: Record<string, unknown>,
  secretKeys: Iterable<string>,
): Record<string, unknown> {
  const secret = new Set(secretKeys);
  const wire: Record<string, unknown> = {};
  for (const key of Object.keys(props)) {
    const value = props[key];
    if (value === undefined) continue;
    wire[key] = secret.has(key) ? { [SIG_KEY]: SECRET_SIG, value } : value;
  }
  return wire;
}
