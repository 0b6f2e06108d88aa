/**
 * Listings of an account shared by the creates that start together. Before its first attempt, a
 * create lists the account's machines (or scripts) to find what an unfinished create of the same
 * resource left (machine/leftovers.ts, script/scriptCreate.ts). A fleet's creates each did that
 * alone: 200 creates, 200 listings. Here the creates of one account that start together share one
 * listing (all pages): the first opens a short window on the context's clock, and every create
 * arriving before the listing leaves for the API (after its turn in the account's rate limiter,
 * so under throttling a batch grows while it waits) joins it.
 *
 * The guarantee is the one a create's own listing gave: the listing a create uses is sent after
 * that create began, so everything that existed then is in it. A create never joins a listing
 * already sent, and no listing is reused. A shared listing that fails after its retries lets each
 * of its creates list on its own.
 */
import { timingOf, type Timing } from "../../client/core/retry";
import type { Account } from "./account";
import { LIST_WINDOW_MS } from "./listSnapshot";

/** Lists the account; `onSent` is called when the (first) request leaves, as in `RequestOptions`. */
export type Lister<T> = (onSent: () => void) => Promise<T[]>;

interface Batch<T> {
  members: number;
  result: Promise<T[] | undefined>;
}

/** The fresh listings of one account and one kind of record (module comment). */
export class FreshListings<T> {
  /** The batch creates may still join: its listing has not left yet. */
  private open: Batch<T> | undefined;
  /** Listings sent for batches (for tests and benchmarks). */
  listings = 0;

  constructor(
    private readonly lister: Lister<T>,
    private readonly timing: Pick<Timing, "sleep">,
    private readonly windowMs = LIST_WINDOW_MS,
  ) {}

  /** Every record of the account, from a listing sent after this call began. */
  async list(): Promise<T[]> {
    const batch = this.open ?? this.start();
    batch.members++;
    return (await batch.result) ?? this.lister(() => undefined);
  }

  private start(): Batch<T> {
    const batch: Batch<T> = { members: 0, result: Promise.resolve(undefined) };
    batch.result = this.listAfterWindow(batch);
    this.open = batch;
    return batch;
  }

  /** Undefined: the shared listing failed, and each member lists on its own. */
  private async listAfterWindow(batch: Batch<T>): Promise<T[] | undefined> {
    await this.timing.sleep(this.windowMs);
    const close = () => {
      if (this.open === batch) this.open = undefined;
    };
    this.listings++;
    try {
      return await this.lister(close);
    } catch {
      return undefined;
    } finally {
      close();
    }
  }
}

/**
 * The fresh listings of `kind` for `account`, made on first use with `lister` (which lists that
 * account), on the clock of the account's context.
 */
export function freshListingsFor<T>(account: Account, kind: string, lister: Lister<T>): FreshListings<T> {
  return account.memo(`${kind} listings`, () => {
    return new FreshListings<T>(lister, timingOf(account.context.timing));
  });
}
