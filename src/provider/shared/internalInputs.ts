/**
 * The internal inputs a door adds to a resource's for what the engine gives it besides the
 * inputs (the dynamic door's classes, dynamic/resourceOptions.ts; the plugin, from its requests),
 * which the implementations read (operationOptions.ts, checks.ts). Keys start with `__`: no diff
 * and no display shows them.
 */

/** The internal input keys of the resource options. */
export const OPTION_INPUT_KEYS = ["__customTimeouts", "__replaceOnChanges", "__secretInputs"] as const;

/** `customTimeouts` as the provider receives it: the durations as written (Go syntax: "30s", "5m", "1h30m"). */
export interface TimeoutInputs {
  create?: string;
  update?: string;
  delete?: string;
}
