/**
 * Refresh from lists: the reads of one `pulumi refresh` share one listing per account and kind
 * instead of one show each. The engine sends a refresh's reads together; the first read of an
 * account opens a short window on the context's clock, which a second read closes at once: every
 * read of that kind and account arriving within it, or while its listing is in flight, is served
 * from that one listing (all pages). A read alone in its window lists nothing and reads its
 * resource alone, as before: a single `get` or `refresh --target` costs one show.
 *
 * The listing only answers "here it is, as listed". Anything it cannot answer is read alone:
 * a resource missing from it (its own 404 still decides that it is gone, with the cross-account
 * rule of gone.ts), a listing that failed, and what a list does not carry (a machine's events:
 * see `machineFromList`). The engine runs a refresh's reads a few at a time (`--parallel`, by
 * default 4 per core), so a finished listing keeps serving the reads that follow for
 * `LIST_REUSE_MS`: a refresh of 200 machines costs one listing, not one per wave of reads. A read
 * is thus served from a listing at most that old; a resource made since is missing from it and
 * read alone.
 */
import { timingOf, type Timing } from "../../client/core/retry";
import type { Machine, Script } from "../../contract/schemas";

/**
 * How long the first read waits for a second to join its listing (the context's clock). The
 * second closes the window at once: a refresh does not wait it out (it was 50 ms of every
 * refresh's wall time), and a read alone still waits it all before it reads alone.
 */
export const LIST_WINDOW_MS = 50;
/** How long a finished listing keeps serving reads (the context's clock). */
export const LIST_REUSE_MS = 2_000;

interface Entry {
  /** The listing (undefined: read alone, or the listing failed). */
  result: Promise<Map<string, unknown> | undefined>;
  readers: number;
  /** Aborted by the second reader: the window closes and the listing starts. */
  joined: AbortController;
  /** When the listing was answered, on the context's clock. */
  takenAt?: number;
}

/** The listings shared by reads, per account and kind. One per process (or per test context). */
export class ListSnapshots {
  private readonly entries = new Map<string, Entry>();
  private readonly timing: Timing;
  /** Listings taken (for tests and benchmarks). */
  listings = 0;

  constructor(
    timing: Partial<Timing> = {},
    private readonly windowMs = LIST_WINDOW_MS,
    private readonly reuseMs = LIST_REUSE_MS,
  ) {
    this.timing = timingOf(timing);
  }

  /**
   * The item `id` as a listing shared with other reads of `key` shows it, or undefined when the
   * caller must read it alone (alone in its window, missing from the listing, listing failed).
   * `list` returns every item (all pages); it is called at most once per window.
   */
  async lookup<T extends { id: string }>(
    key: string,
    list: () => Promise<T[]>,
    id: string,
  ): Promise<T | undefined> {
    const entry = this.current(key) ?? this.open(key, list);
    if (++entry.readers === 2) entry.joined.abort();
    const listed = await entry.result;
    return listed?.get(id) as T | undefined;
  }

  /** The entry a read of `key` joins: its window open, its listing in flight, or answered lately. */
  private current(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.takenAt === undefined || this.timing.now() - entry.takenAt <= this.reuseMs) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private open<T extends { id: string }>(key: string, list: () => Promise<T[]>): Entry {
    const entry: Entry = { result: Promise.resolve(undefined), readers: 0, joined: new AbortController() };
    entry.result = this.listAfterWindow(key, entry, list);
    this.entries.set(key, entry);
    return entry;
  }

  private async listAfterWindow<T extends { id: string }>(
    key: string,
    entry: Entry,
    list: () => Promise<T[]>,
  ): Promise<Map<string, unknown> | undefined> {
    await this.timing.sleep(this.windowMs, entry.joined.signal).catch(() => undefined);
    if (entry.readers < 2) {
      this.entries.delete(key); // alone: no listing to share
      return undefined;
    }
    this.listings++;
    try {
      const items = await list();
      entry.takenAt = this.timing.now();
      return new Map(items.map((item) => [item.id, item]));
    } catch {
      // Each read falls back to its own show, which has its own retries and says what failed.
      this.entries.delete(key);
      return undefined;
    }
  }
}

/**
 * Pure: the machine as a show would give it, from its listed record and the outputs recorded
 * for it, or undefined when only a show can tell. A list carries no events; the recorded events
 * are kept when the listed state is the recorded one and no recorded event was still pending
 * (a machine whose state moved, or whose last action was unfinished, is read alone). An event
 * that ends without changing the state (a failed start already back `off`) is thus seen at the
 * next single read or change of state, not at this refresh.
 */
export function machineFromList(listed: Machine, recorded: Record<string, unknown>): Machine | undefined {
  const events = recorded.events;
  if (recorded.currentState !== listed.state || !Array.isArray(events)) return undefined;
  if (events.some((event) => (event as { state?: unknown } | null)?.state === "pending")) return undefined;
  const { internalId: _listOnly, ...shown } = listed;
  return { ...shown, events: events as Machine["events"] };
}

/**
 * Pure: the script as a show would give it, from its listed record and its recorded outputs, or
 * undefined when only a show can tell. A list does not carry the machines a script is attached
 * to; the recorded ones are kept (a `refresh --target` of the script, a single read, re-reads them).
 */
export function scriptFromList(listed: Script, recorded: Record<string, unknown>): Script | undefined {
  if (!Array.isArray(recorded.machines)) return undefined;
  return { ...listed, machines: recorded.machines as Script["machines"] };
}
