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

/**
 * The last instant a timestamp of the API can write (9999-12-31T23:59:59.999Z): past it the year
 * takes five digits, which no timestamp of the contract has, and a few millennia further on
 * `Date` itself gives out. A manual clock never goes beyond it.
 */
export const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

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
    const latest = this.latestStep();
    if (ms > latest) {
      throw new RangeError(
        `advance by ${ms} ms would pass ${iso(LATEST_INSTANT)}, the last instant a timestamp can show: at most ${latest}`,
      );
    }
    this.current += Math.round(ms);
  }

  /** The longest step `advance` takes from now. */
  latestStep(): number {
    return LATEST_INSTANT - this.current;
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
