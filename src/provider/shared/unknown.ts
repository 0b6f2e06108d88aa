/**
 * During preview the engine passes values it does not know yet as this sentinel string (the
 * SDK's `runtime.unknownValue`, the protocol's `UnknownStringValue`) to `check` and `diff`. It is
 * "unknown", never a bad value: checks skip it, diffs treat it as a change. Written out rather
 * than read from `@pulumi/pulumi`, so the native plugin starts without loading the whole SDK
 * (test/unit/provider/unknown.test.ts holds it equal to the SDK's).
 */
export const UNKNOWN: string = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value, or any value inside it, is the preview's unknown sentinel. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
