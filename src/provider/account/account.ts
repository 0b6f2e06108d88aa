/**
 * One configured account, resolved once: its settings checked, the digest that names it, its
 * client (with the account's request budget), and what resources keep per account (the machine
 * watcher, the listings creates share). Both doors hand every call its `Account`, through the
 * configuration's `Accounts` (accounts.ts, where every account is resolved and kept): the
 * TypeScript door from the stack config and the resource's `account` name, the plugin from its
 * provider's configuration; the program's data sources from the stack config too
 * (functions/programClient.ts). An implementation never sees settings, and nothing re-checks
 * them: a bad setting fails the call before any request, once.
 */
import { createHash } from "node:crypto";
import { VmApiClient, type VmApiClientOptions } from "../../client/client";
import { DEFAULT_CREATE_TIMEOUT_MS } from "../../client/core/settings";
import type { ProviderContext } from "./context";
import { retryReporter } from "./progress";
import { rateLimiterFor } from "./rateLimiters";
import { PROVIDER_MAX_RETRIES, type CheckedSettings } from "./settings";

/**
 * An account as a key for what a process shares per account (request budgets, the lookups of
 * `check`, the machine watcher, list snapshots): the base URL and a digest of the key, so that no
 * map, dump or inspection of a context ever holds or shows the key itself. The one digest of a
 * key the provider makes.
 */
export function accountDigest(baseUrl: string, apiKey: string): string {
  return `${baseUrl} ${createHash("sha256").update(apiKey).digest("hex").slice(0, 32)}`;
}

/** A configured account (module comment); made by `accountOf` alone (accounts.ts). */
export class Account {
  /** The account's client: shared by every call, on the account's request budget. */
  readonly client: VmApiClient;
  readonly #memo = new Map<string, unknown>();

  constructor(
    private readonly settings: CheckedSettings,
    /**
     * What names the account where a process shares something per account (`accountDigest`): the
     * scope of `check`'s cached lookups, the key of its request budget, its listings.
     */
    readonly key: string,
    /** The process's context: the clock, the lookup cache and the budgets this account uses. */
    readonly context: ProviderContext,
  ) {
    this.client = this.clientWith({});
  }

  /** The API's base URL. */
  get baseUrl(): string {
    return this.settings.baseUrl;
  }

  /** Multiplies the provider's polling delays (below 1 for an emulator whose clock runs faster). */
  get pollScale(): number {
    return this.settings.pollScale;
  }

  /** A client of the account tuned for one use (e.g. `check`'s short fuse); same budget. */
  clientWith(overrides: Partial<VmApiClientOptions>): VmApiClient {
    const { apiKey, baseUrl, pollScale } = this.settings;
    return new VmApiClient({
      maxRetries: PROVIDER_MAX_RETRIES,
      // How late a create may take effect is the API's time, like its lifecycle: scaled alike.
      createTimeoutMs: Math.max(1, Math.round(DEFAULT_CREATE_TIMEOUT_MS * pollScale)),
      // Retries show in the engine's output, so an API that is down is visibly being retried.
      onRetry: retryReporter(this.context.progress),
      ...this.context.timing,
      rateLimiter: rateLimiterFor(this.context, this.key, baseUrl),
      ...overrides,
      apiKey,
      baseUrl,
    });
  }

  /**
   * What a resource keeps for this account (a machine watcher, a shared listing), made by
   * `make` on first use and kept as long as the account: the account knows nothing of machines.
   */
  memo<T>(name: string, make: () => T): T {
    if (!this.#memo.has(name)) this.#memo.set(name, make());
    return this.#memo.get(name) as T;
  }
}
