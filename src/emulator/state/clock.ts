/**
 * Time as the emulator sees it. Every lifecycle decision reads `clock.now()`, never `Date.now()`,
 * so tests move time forward with a manual clock instead of sleeping.
 */

/** A source of the current time in epoch milliseconds. */
export interface Clock {
  readonly mode: "real" | "manual";
  now(): number;
}

/** Wall-clock time. */
export class RealClock implements Clock {
  readonly mode = "real" as const;
  /** The current wall-clock time. */
  now(): number {
    return Date.now();
  }
}

/** Time that only moves when told to; the default for tests. */
export class ManualClock implements Clock {
  readonly mode = "manual" as const;

  constructor(private current: number) {}

  /** The frozen current time. */
  now(): number {
    return this.current;
  }

  /** Moves time forward; time never runs backwards, so a negative step is refused. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance needs ms >= 0 (got ${ms})`);
    this.current += Math.round(ms);
  }
}

/** ISO 8601 UTC with milliseconds, the only timestamp format on the wire. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** `iso` that passes null through, for optional timestamps. */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}
