/**
 * Paging of GET /machines/getMachines: an async iterator over items that fetches one page (`limit`,
 * `skip` in multiples of it) at a time, and a `collect` that needs an explicit bound, so nobody
 * loads an unbounded account into memory by accident.
 */
import { ResponseValidationError, ValidationError, VmApiError } from "./errors";

/** Fetches one page. */
export type PageFetcher<T> = (page: { limit: number; skip: number }) => Promise<T[]>;

/**
 * Every item of every page. A page shorter than `pageSize` is the last. Items are de-duplicated
 * by `idOf`: skip/limit paging over a list that changes meanwhile can repeat an item at a page
 * boundary (it can also miss one; only a fresh listing avoids that).
 */
export class Paginator<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly pageSize: number,
    private readonly idOf: (item: T) => string,
  ) {}

  /** Pages as they arrive (duplicates across pages already removed). */
  async *pages(): AsyncGenerator<T[], void, undefined> {
    const seen = new Set<string>();
    for (let skip = 0; ; skip += this.pageSize) {
      const page = await this.fetchPage({ limit: this.pageSize, skip });
      const fresh = page.filter((item) => !seen.has(this.idOf(item)));
      fresh.forEach((item) => seen.add(this.idOf(item)));
      if (page.length < this.pageSize) {
        if (fresh.length > 0) yield fresh;
        return;
      }
      if (fresh.length === 0) {
        // A full page of items already seen: the server ignores `skip`; stop rather than loop.
        throw new ResponseValidationError(
          `page at skip ${skip} repeats earlier items; the server ignores skip`,
        );
      }
      yield fresh;
    }
  }

  /** Every item once, fetching the next page only when the previous one is used up. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page;
  }

  /**
   * Every item; once more than `max` arrive, a `VmApiError` with code `collect_limit_exceeded`
   * (the rest is not fetched). A `max` that is not a whole number ≥ 0 is a `ValidationError`.
   */
  collect(options: { max: number }): Promise<T[]> {
    return collect(this, options);
  }
}

/**
 * Collects an async iterable into an array, refusing to hold more than `max` items: past it, a
 * `VmApiError` with code `collect_limit_exceeded` (not a `ValidationError`: the input was valid,
 * the account holds more than the caller bounded).
 */
export async function collect<T>(items: AsyncIterable<T>, options: { max: number }): Promise<T[]> {
  if (!Number.isInteger(options.max) || options.max < 0) {
    throw new ValidationError(`max must be a non-negative integer (got ${options.max})`);
  }
  const result: T[] = [];
  for await (const item of items) {
    if (result.length === options.max) {
      throw new VmApiError(`more than ${options.max} items; raise max or iterate instead of collecting`, {
        code: "collect_limit_exceeded",
      });
    }
    result.push(item);
  }
  return result;
}
