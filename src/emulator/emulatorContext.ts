/**
 * One running emulator's state apart from HTTP: the store, the clock, the faults, the rate
 * limits, per-route request counts, the recent requests (for the console), the seed to reset
 * to, and the state file to write.
 */
import { ApiError, badRequest } from "./model/apiError";
import { lifecycleEffects } from "./model/lifecycleEffects";
import { iso, LATEST_INSTANT, ManualClock, type Clock } from "./state/clock";
import { Faults } from "./traffic/faults";
import { loadState } from "./state/persistence";
import { RateLimits, type RateLimitSetting } from "./traffic/rateLimit";
import { RequestLog } from "./traffic/requestLog";
import type { Seed } from "./state/seed";
import { Store } from "./state/store";

/** How to build an emulator context. */
export interface EmulatorContextOptions {
  seed: Seed;
  clockMode: "real" | "manual";
  timeScale: number;
  faultRate: number;
  faultSeed: number;
  /** Throttling per API key at start (null: off). */
  rateLimit: RateLimitSetting | null;
  stateFile?: string;
  /** The console and control endpoints answer other machines too (`--remote-control`); default off. */
  remoteControl: boolean;
  /** For the real clock; tests never need it. */
  realClock: () => Clock;
}

/** The emulator minus the HTTP server. */
export class EmulatorContext {
  readonly counts = new Map<string, number>();
  /** The last requests served, bounded; a reset keeps them (they are traffic, not state). */
  readonly requests: RequestLog;

  private constructor(
    readonly store: Store,
    readonly faults: Faults,
    readonly rateLimits: RateLimits,
    private readonly seed: Seed,
    private readonly stateFile: string | undefined,
    /** The console and control endpoints answer other machines too (localOnly.ts). */
    readonly remoteControl: boolean,
  ) {
    this.requests = new RequestLog(() => store.clock.now());
  }

  /** Builds the context from the state file when it exists, else from the seed (and writes the file). */
  static create(options: EmulatorContextOptions): EmulatorContext {
    const saved = options.stateFile !== undefined ? loadState(options.stateFile) : undefined;
    const clock =
      options.clockMode === "manual"
        ? new ManualClock(saved?.clockNow ?? Date.parse(options.seed.clockStart))
        : options.realClock();
    const setting = { clock, timeScale: options.timeScale, effectsOf: lifecycleEffects };
    const store = saved ? Store.fromSaved(saved, setting) : Store.fromSeed(options.seed, setting);
    const emulator = new EmulatorContext(
      store,
      new Faults(options.faultRate, options.faultSeed),
      new RateLimits(options.rateLimit),
      options.seed,
      options.stateFile,
      options.remoteControl,
    );
    emulator.persist();
    return emulator;
  }

  /** The clock (manual or real). */
  get clock(): Clock {
    return this.store.clock;
  }

  /**
   * Back to the seed: every resource, request count and fault rule, and the start-up rate limit
   * with full buckets; the clock keeps its time.
   */
  resetToSeed(): void {
    this.store.resetTo(this.seed);
    this.counts.clear();
    this.faults.reset();
    this.rateLimits.reset();
    this.persist();
  }

  /** Moves the manual clock; 409 under the real clock. */
  advance(ms: number): void {
    const clock = this.store.clock;
    if (!(clock instanceof ManualClock)) {
      throw new ApiError(
        409,
        "conflict",
        "the clock is real: start the emulator with --clock manual to advance it",
      );
    }
    if (ms > clock.latestStep()) {
      throw badRequest(
        `ms would move the clock past ${iso(LATEST_INSTANT)}, the last instant a timestamp of the API can show: at most ${clock.latestStep()}`,
      );
    }
    this.store.advanceClock(ms);
    this.persist();
  }

  /** Counts one request under its route key, e.g. "POST /machines/{machineId}/start". */
  count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Writes the state file if anything changed since the last write. */
  persist(): void {
    this.store.save(this.stateFile);
  }
}
