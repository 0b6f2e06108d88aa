import { runtime } from "@pulumi/pulumi";

/**
 * During preview the engine passes values it does not know yet as this sentinel string (the
 * SDK's `runtime.unknownValue`) to `check` and `diff`. It is "unknown", never a bad value:
 * checks skip it, diffs treat it as a change.
 */
export const UNKNOWN: string = runtime.unknownValue;

/** True when the value, or any value inside it, is the preview's unknown sentinel. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
