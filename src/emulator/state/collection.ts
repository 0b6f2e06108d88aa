/**
 * One collection of the store (users, scripts, delegations, capacity, ...), as moto's backends
 * own theirs: it lends its records read-only (`Stored`) and is the only way to add, change or
 * remove one. Every write marks the store changed, so the state file is written before the answer
 * of each request that changed something, and a write can never be left out of it.
 */
import type { Stored } from "./records";

/** Records of one kind, in the order they were added. */
export class Collection<T> {
  /**
   * @param records the store's current list (a reset replaces it, so it is asked for every time).
   * @param changed marks the store changed.
   */
  constructor(
    private readonly records: () => T[],
    protected readonly changed: () => void,
  ) {}

  /** Every record, oldest first. */
  all(): readonly Stored<T>[] {
    return this.records() as readonly Stored<T>[];
  }

  /** The first record `test` accepts. */
  find(test: (record: Stored<T>) => boolean): Stored<T> | undefined {
    return this.all().find(test);
  }

  /** Whether any record passes `test`. */
  some(test: (record: Stored<T>) => boolean): boolean {
    return this.all().some(test);
  }

  /** Adds `record` last; returns it as the collection lends it. */
  add(record: T): Stored<T> {
    this.records().push(record);
    this.changed();
    return record as Stored<T>;
  }

  /** Changes `record`, one of this collection's, through `mutate`; returns what `mutate` returns. */
  change<R>(record: Stored<T>, mutate: (record: T) => R): R {
    this.changed();
    return mutate(record as T);
  }

  /** Removes `record`, one of this collection's. */
  remove(record: Stored<T>): void {
    const records = this.records();
    const index = records.indexOf(record as T);
    if (index >= 0) records.splice(index, 1);
    this.changed();
  }
}
