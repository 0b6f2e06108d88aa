/**
 * Virtual time for many concurrent callers of one emulator on its manual clock. Sleeps are
 * timers; time moves to the next timer only when no request is on the wire, and moving it
 * advances the emulator's clock. Unlike a sleep that advances the clock at once, 50 callers
 * asleep for 1 s make 1 s pass, not 50.
 */
import type { RunningEmulator } from "../../src/emulator";

interface Timer {
  at: number;
  fire: () => void;
}

/** The clock of one test, on `emu`'s manual clock. */
export class VirtualTime {
  private timers: Timer[] = [];

  constructor(private readonly emu: RunningEmulator) {}

  /** Now, on the emulator's clock. */
  now = (): number => this.emu.now();

  /** A sleep on this clock. */
  sleep = (ms: number): Promise<void> =>
    // The emulator's clock counts whole milliseconds.
    new Promise((resolve) => this.timers.push({ at: this.now() + Math.ceil(ms), fire: resolve }));

  /**
   * Runs `tasks` (the callers) to the end. Time moves when `inFlight` (requests sent and not
   * answered: a shared `RateLimiter` counts them) is 0; without it, when every task is done or
   * asleep, which holds only when nothing but the tasks sleeps.
   */
  async run<T>(tasks: Promise<T>[], inFlight?: () => number): Promise<PromiseSettledResult<T>[]> {
    let done = 0;
    const all = Promise.allSettled(tasks.map((t) => t.finally(() => done++)));
    while (done < tasks.length) {
      await new Promise((resolve) => setImmediate(resolve));
      const idle = inFlight ? inFlight() === 0 : done + this.timers.length === tasks.length;
      if (!idle || this.timers.length === 0) continue;
      const at = Math.min(...this.timers.map((t) => t.at));
      if (at > this.now()) this.emu.advance(at - this.now());
      const due = this.timers.filter((t) => t.at <= at);
      this.timers = this.timers.filter((t) => t.at > at);
      for (const timer of due) timer.fire();
    }
    return all;
  }
}
