/**
 * A virtual clock for the clients and providers of a test, on an emulator's manual clock: a
 * sleep advances the emulator's clock instead of waiting, so waits and backoffs cost no real
 * time, and `now` reads the same virtual time. Jitter is fixed at the middle.
 */
import type { Timing } from "../../src/client/core/retry";
import type { RunningEmulator } from "../../src/emulator";

/** A `Timing` whose sleeps advance `emu`'s manual clock. */
export class VirtualClock implements Timing {
  /** Every sleep, in order. */
  readonly sleeps: number[] = [];
  private virtual: number;

  /**
   * `start`: what `now` answers before any sleep (epoch ms); `onSleep` runs after each sleep
   * has moved the clock, e.g. to change the world between two polls.
   */
  constructor(
    private readonly emu: Pick<RunningEmulator, "advance">,
    start = 0,
    private readonly onSleep?: () => Promise<void>,
  ) {
    this.virtual = start;
  }

  /** Virtual now: `start` plus every sleep and advance. */
  now = (): number => this.virtual;

  /** Fixed jitter: the middle of every range. */
  random = (): number => 0.5;

  /** Records the sleep and advances the clock instead of waiting. */
  sleep = async (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    this.advance(ms);
    await this.onSleep?.();
  };

  /** Moves the virtual time and the emulator's clock `ms` forward without a sleep. */
  advance(ms: number): void {
    this.virtual += ms;
    this.emu.advance(ms);
  }

  /** The three functions a client or provider context takes (`sleep`, `now`, `random`). */
  timing(): Timing {
    return { sleep: this.sleep, now: this.now, random: this.random };
  }

  /** A clock on the same emulator that starts at this one's now and runs `onSleep` after each sleep. */
  fork(onSleep: () => Promise<void>): VirtualClock {
    return new VirtualClock(this.emu, this.virtual, onSleep);
  }
}
