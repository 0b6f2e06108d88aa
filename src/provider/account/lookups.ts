/**
 * API lookups that `check` makes, remembered for the life of the plugin process (one `preview`
 * or `up`): many resources on one template or network then cost one request, not one each.
 *
 * The cache is part of the providers' context (context.ts): the plugin's providers share the
 * process's one, a test builds its own. Keys carry the account's digest (`Account.key`: the base
 * URL and a digest of the key), so two accounts never share an answer; the key itself is never
 * stored.
 */

/** A memo of lookups: one request per key, shared by concurrent callers. */
export class LookupCache {
  readonly #entries = new Map<string, Promise<unknown>>();

  /**
   * The value for `key`, loading it once. A failure is not kept, and neither is a value that
   * `keep` rejects (e.g. "not found": the thing may be created later in the same `up`).
   */
  get<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    const cached = this.#entries.get(key) as Promise<T> | undefined;
    if (cached) return cached;
    const loading = load();
    this.#entries.set(key, loading);
    loading.then(
      (value) => keep(value) || this.#forget(key, loading),
      () => this.#forget(key, loading),
    );
    return loading;
  }

  #forget(key: string, entry: Promise<unknown>): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
  }
}
