/**
 * `VmApiClient`: the typed client of the VM API, composed of one object per API resource that all
 * share one `HttpClient`. Building a client has no side effect besides reading the environment
 * for settings; it sends nothing.
 */
import { HttpClient, type RetryNotice } from "./core/http";
import { Machines } from "./resources/machine";
import { Networks } from "./resources/networks";
import type { RateLimiter } from "./core/rateLimiter";
import { ResourceDelegations } from "./resources/resourceDelegations";
import { DEFAULT_RETRY_POLICY, timingOf, type RetryPolicy, type Timing } from "./core/retry";
import { Scripts } from "./resources/scripts";
import { resolveSettings, type ClientSettingsInput } from "./core/settings";
import { Templates } from "./resources/templates";
import { Users } from "./resources/users";

/** Options of `new VmApiClient(...)`. */
export interface VmApiClientOptions extends ClientSettingsInput {
  /** Backoff tunables; `maxRetries` above takes precedence over `retryPolicy.maxRetries`. */
  retryPolicy?: Partial<Omit<RetryPolicy, "maxRetries">>;
  /** Debug log of requests and retries: method, path, status, timing; never headers or the key. */
  log?: (line: string) => void;
  /** Told before each retry (method, path, error, count, delay): to show that a call is retrying. */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * A request budget shared with other clients of the same account: every request waits for its
   * turn, and the limiter learns the account's limit from 429s and `Retry-After`. Default: none
   * (each client retries on its own). See docs/client.md, "Sharing a rate limit".
   */
  rateLimiter?: RateLimiter;
  /** Environment to read settings from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * @internal Testing hook: replaces the clock used for retry backoff, `Retry-After` and
   * `waitFor`, so a test's sleep can advance an emulator's manual clock instead of waiting.
   */
  sleep?: Timing["sleep"];
  /** @internal Testing hook: milliseconds since the epoch. */
  now?: Timing["now"];
  /** @internal Testing hook: a number in [0, 1) for jitter. */
  random?: Timing["random"];
}

/** The typed client of the VM API. */
export class VmApiClient {
  /** Machines: create, get, list, listAll, start, stop, restart, update, destroy, setAccess, utilization, availability, waitFor. */
  readonly machines: Machines;
  /** Startup scripts: create, get, list, text, destroy. */
  readonly scripts: Scripts;
  /** Machine templates: list. */
  readonly templates: Templates;
  /** Users of the account or team: list. */
  readonly users: Users;
  /** Networks: list. */
  readonly networks: Networks;
  /** Resource delegations: create. */
  readonly resourceDelegations: ResourceDelegations;
  /** The base URL requests go to. */
  readonly baseUrl: string;
  /** Per-request timeout in milliseconds. */
  readonly timeoutMs: number;
  /** Retries after a failed attempt. */
  readonly maxRetries: number;
  /** How long a create may take to take effect (see `ClientSettingsInput.createTimeoutMs`). */
  readonly createTimeoutMs: number;

  /** Throws `ConfigurationError` when no API key is given or found in the environment. */
  constructor(options: VmApiClientOptions = {}) {
    const settings = resolveSettings(options, options.env);
    const timing = timingOf(options);
    const retryPolicy: RetryPolicy = {
      ...DEFAULT_RETRY_POLICY,
      ...options.retryPolicy,
      maxRetries: settings.maxRetries,
    };
    const http = new HttpClient({
      settings,
      timing,
      retryPolicy,
      log: options.log,
      onRetry: options.onRetry,
      rateLimiter: options.rateLimiter,
    });
    this.baseUrl = settings.baseUrl;
    this.timeoutMs = settings.timeoutMs;
    this.maxRetries = settings.maxRetries;
    this.createTimeoutMs = settings.createTimeoutMs;
    this.machines = new Machines(http, timing, settings.createTimeoutMs);
    this.scripts = new Scripts(http, settings.createTimeoutMs);
    this.templates = new Templates(http);
    this.users = new Users(http);
    this.networks = new Networks(http);
    this.resourceDelegations = new ResourceDelegations(http);
  }

  /** The settings without the key, for logs and `JSON.stringify`. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, timeoutMs: this.timeoutMs, maxRetries: this.maxRetries };
  }

  /** `util.inspect` shows the settings without the key. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `VmApiClient ${JSON.stringify(this.toJSON())}`;
  }
}
