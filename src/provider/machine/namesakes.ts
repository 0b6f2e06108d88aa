/**
 * Namesakes shared by creates that start together. Before its first attempt, a create lists the
 * machines that already have its name (machines.ts: a lost answer may then take only a machine
 * made after it, never one kept by retainOnDelete or left by a killed `up`). A fleet's creates
 * each did that alone: 200 creates, 200 listings. Here the creates of one account that start
 * together share one listing of the account (all pages): the first opens a short window on the
 * context's clock, and every create arriving before the listing leaves for the API (after its
 * turn in the account's rate limiter, so under throttling a batch grows while it waits) joins it.
 *
 * The guarantee is the one a create's own listing gave: the listing a create uses is sent after
 * that create began, so every namesake that existed then is in it. A create never joins a listing
 * already sent, and no listing is reused. A create alone in its window lists its namesakes by
 * name, as before (one request either way, and a smaller answer); a shared listing that fails
 * after its retries lets each of its creates list its own namesakes.
 */
import { realTiming, type Timing } from "../../client/retry";
import type { Machine } from "../../contract/schemas";
import { PerAccount, type ProviderContext } from "../shared/context";
import { LIST_WINDOW_MS } from "../shared/listSnapshot";
import { accountKey, clientFor, type ProviderSettings } from "../shared/settings";

/** Bound on the machines one listing collects; far above any sane account. */
const MAX_LISTED = 100_000;

/** How the account is listed: every machine, or those of one name; `onSent` as in `RequestOptions`. */
export interface NamesakeLister {
  all(onSent: () => void): Promise<Machine[]>;
  named(name: string): Promise<Machine[]>;
}

interface Batch {
  members: number;
  result: Promise<Map<string, Set<string>> | undefined>;
}

/** The namesake listings of one account (module comment). */
export class NamesakeListings {
  /** The batch creates may still join: its listing has not left yet. */
  private open: Batch | undefined;
  /** Shared listings sent (for tests and benchmarks). */
  listings = 0;

  constructor(
    private readonly lister: NamesakeLister,
    private readonly timing: Pick<Timing, "sleep">,
    private readonly windowMs = LIST_WINDOW_MS,
  ) {}

  /** The ids of the machines named `name`, from a listing sent after this call began. */
  async idsNamed(name: string): Promise<ReadonlySet<string>> {
    const batch = this.open ?? this.start();
    batch.members++;
    const byName = await batch.result;
    if (byName === undefined) return idsOf(await this.lister.named(name));
    return byName.get(name) ?? new Set();
  }

  private start(): Batch {
    const batch: Batch = { members: 0, result: Promise.resolve(undefined) };
    batch.result = this.listAfterWindow(batch);
    this.open = batch;
    return batch;
  }

  /** Undefined: each member lists its own (alone in its window, or the shared listing failed). */
  private async listAfterWindow(batch: Batch): Promise<Map<string, Set<string>> | undefined> {
    await this.timing.sleep(this.windowMs);
    const close = () => {
      if (this.open === batch) this.open = undefined;
    };
    if (batch.members < 2) {
      close();
      return undefined;
    }
    this.listings++;
    try {
      const machines = await this.lister.all(close);
      return byName(machines);
    } catch {
      return undefined;
    } finally {
      close();
    }
  }
}

function idsOf(machines: readonly Machine[]): Set<string> {
  return new Set(machines.map((machine) => machine.id));
}

function byName(machines: readonly Machine[]): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const machine of machines) {
    let ids = names.get(machine.name);
    if (ids === undefined) names.set(machine.name, (ids = new Set()));
    ids.add(machine.id);
  }
  return names;
}

/** The namesake listings of each context, one per account. */
const LISTINGS = new PerAccount<NamesakeListings>();

/** The namesake listings of the account `settings` talk to, in `context`; made on first use. */
export function namesakeListingsFor(context: ProviderContext, settings: ProviderSettings): NamesakeListings {
  return LISTINGS.get(context, accountKey(settings), () => {
    const client = clientFor(settings, context);
    const lister: NamesakeLister = {
      all: (onSent) => client.machines.listAll({}, { onSent }).collect({ max: MAX_LISTED }),
      named: (name) => client.machines.listAll({ name }).collect({ max: MAX_LISTED }),
    };
    return new NamesakeListings(lister, { sleep: context.timing.sleep ?? realTiming.sleep });
  });
}
