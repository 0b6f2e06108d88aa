/**
 * Namesakes shared by creates that start together. Before its first attempt, a create lists the
 * machines that already have the names it cares about (leftovers.ts: its creating name, which
 * only an unfinished create of the same resource leaves, and for an auto-name the name itself).
 * A fleet's creates each did that alone: 200 creates, 200 listings. Here the creates of one
 * account that start together share one listing of the account (all pages): the first opens a
 * short window on the context's clock, and every create arriving before the listing leaves for
 * the API (after its turn in the account's rate limiter, so under throttling a batch grows while
 * it waits) joins it.
 *
 * The guarantee is the one a create's own listing gave: the listing a create uses is sent after
 * that create began, so every namesake that existed then is in it. A create never joins a listing
 * already sent, and no listing is reused. A create alone in its window that asks for one name
 * lists by that name (a smaller answer); asking for more, it lists the account once, as a batch
 * does. A shared listing that fails after its retries lets each of its creates list its own.
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
  /** The names each member asks for, so a batch of one knows whether to list by name. */
  asks: (readonly string[])[];
  result: Promise<Map<string, Machine[]> | undefined>;
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

  /** The machines named any of `names`, from a listing sent after this call began. */
  async named(names: readonly string[]): Promise<Machine[]> {
    const batch = this.open ?? this.start();
    batch.asks.push(names);
    const byName = await batch.result;
    if (byName === undefined) {
      const each = await Promise.all(names.map((name) => this.lister.named(name)));
      return each.flat();
    }
    return names.flatMap((name) => byName.get(name) ?? []);
  }

  private start(): Batch {
    const batch: Batch = { asks: [], result: Promise.resolve(undefined) };
    batch.result = this.listAfterWindow(batch);
    this.open = batch;
    return batch;
  }

  /** Undefined: each member lists its own (alone asking one name, or the shared listing failed). */
  private async listAfterWindow(batch: Batch): Promise<Map<string, Machine[]> | undefined> {
    await this.timing.sleep(this.windowMs);
    const close = () => {
      if (this.open === batch) this.open = undefined;
    };
    if (batch.asks.length < 2 && (batch.asks[0]?.length ?? 0) < 2) {
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

function byName(machines: readonly Machine[]): Map<string, Machine[]> {
  const names = new Map<string, Machine[]>();
  for (const machine of machines) {
    let named = names.get(machine.name);
    if (named === undefined) names.set(machine.name, (named = []));
    named.push(machine);
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
