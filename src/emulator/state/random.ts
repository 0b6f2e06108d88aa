/**
 * A seeded pseudo-random source (mulberry32). Ids and fault choices come from one of these,
 * never from Math.random, so a run can be replayed and its state persisted as one number.
 */

const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Deterministic random numbers whose whole state is a 32-bit integer. */
export class SeededRandom {
  private value: number;

  constructor(seed: number) {
    this.value = seed >>> 0;
  }

  /** The current state, for persistence; `new SeededRandom(state)` continues the sequence. */
  get state(): number {
    return this.value;
  }

  /** A float in [0, 1). */
  next(): number {
    this.value = (this.value + 0x6d2b79f5) >>> 0;
    let t = this.value;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** `length` base36 characters. */
  chars(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += BASE36[this.int(36)];
    return out;
  }

  /**
   * A fresh id `prefix` + 7 base36 characters (docs/api.md, "Conventions": `ps123abc`,
   * `u123abc`, ...), drawn again while `taken` says it is in use.
   */
  id(prefix: string, taken: (id: string) => boolean): string {
    for (;;) {
      const candidate = prefix + this.chars(7);
      if (!taken(candidate)) return candidate;
    }
  }
}
