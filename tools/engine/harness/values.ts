/** Property values as the engine holds them: plain JSON-like data plus secret and unknown markers. */

/** A value the engine holds as secret. Build with {@link secret}; test with {@link isSecret}. */
export class Secret {
  constructor(public readonly value: PropValue) {}
}

/** The engine's "unknown" (computed) value; only meaningful in preview operations. */
export const UNKNOWN: unique symbol = Symbol("UNKNOWN");

export type PropValue = null | boolean | number | string | PropValue[] | Props | Secret | typeof UNKNOWN;
export interface Props {
  [key: string]: PropValue;
}

export const secret = (value: PropValue): Secret => new Secret(value);
export const isSecret = (v: unknown): v is Secret => v instanceof Secret;

/** Deep copy with every secret marker removed (the plain values the provider code sees). */
export function reveal(v: PropValue): PropValue {
  if (v instanceof Secret) return reveal(v.value);
  if (Array.isArray(v)) return v.map(reveal);
  if (isPropObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reveal(x)]));
  return v;
}

/** True if the value is, or contains, a secret (Go `PropertyValue.ContainsSecrets`). */
export function containsSecrets(v: PropValue): boolean {
  if (v instanceof Secret) return true;
  if (Array.isArray(v)) return v.some(containsSecrets);
  if (isPropObject(v)) return Object.values(v).some(containsSecrets);
  return false;
}

/** True if the value is, or contains, {@link UNKNOWN}. */
export function containsUnknowns(v: PropValue): boolean {
  if (v === UNKNOWN) return true;
  if (v instanceof Secret) return containsUnknowns(v.value);
  if (Array.isArray(v)) return v.some(containsUnknowns);
  if (isPropObject(v)) return Object.values(v).some(containsUnknowns);
  return false;
}

/** Deep copy that keeps {@link Secret} and {@link UNKNOWN} markers. */
export function cloneProps(p: Props): Props {
  const clone = (v: PropValue): PropValue =>
    v instanceof Secret
      ? new Secret(clone(v.value))
      : Array.isArray(v)
        ? v.map(clone)
        : isPropObject(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]))
          : v;
  return clone(p) as Props;
}

/** A plain property object: not null, an array or a {@link Secret}. */
export function isPropObject(v: unknown): v is Props {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Secret);
}

/**
 * Go `annotateSecrets`: the dynamic provider does not accept secrets, so the engine strips them
 * on the way in and marks same-named outputs secret on the way out (recursing into objects).
 */
export function annotateSecrets(outs: Props | undefined, ins: Props | undefined): void {
  if (!outs || !ins) return;
  for (const [key, inValue] of Object.entries(ins)) {
    if (!Object.prototype.hasOwnProperty.call(outs, key)) continue;
    const outValue = outs[key];
    if (isPropObject(outValue) && isPropObject(inValue)) {
      annotateSecrets(outValue, inValue);
    } else if (!(outValue instanceof Secret) && containsSecrets(inValue)) {
      outs[key] = new Secret(outValue);
    }
  }
}

/** Structural equality of property values, as the engine's legacy diff of inputs compares them. */
export function deepEqual(a: PropValue, b: PropValue): boolean {
  if (a === UNKNOWN || b === UNKNOWN) return false; // computed values always count as a change
  if (a instanceof Secret || b instanceof Secret) {
    return a instanceof Secret && b instanceof Secret && deepEqual(a.value, b.value);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
    );
  }
  if (isPropObject(a) && isPropObject(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && deepEqual(a[k], b[k]));
  }
  return a === b;
}
