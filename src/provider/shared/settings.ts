/**
 * Provider settings: what `configure` read from the stack config (`vmapi:apiKey`, a secret,
 * `vmapi:baseUrl` and `vmapi:pollScale`), falling back to the client's environment variables at
 * call time. Every operation checks all of them before its first request (`checkSettings`), so a
 * bad setting never fails an operation half-way, after a machine was created.
 */
import { VmApiClient, type VmApiClientOptions } from "../../client/client";
import { ConfigurationError } from "../../client/errors";
import { DEFAULT_CREATE_TIMEOUT_MS, resolveSettings } from "../../client/settings";
import { PerAccount, type ProviderContext } from "./context";
import { accountDigest, rateLimiterFor } from "./rateLimiters";
import { retryReporter } from "./progress";

/** Settings as `configure` keeps them in the plugin (runtime.ts); never in state, never logged. */
export interface ProviderSettings {
  apiKey?: string;
  baseUrl?: string;
  /**
   * `vmapi:pollScale`: multiplies the provider's polling delays and the time a create is given to
   * take effect (for a time-scaled emulator).
   */
  pollScale?: string;
  /** `vmapi:accounts` as the config holds it (a JSON object of named accounts): see accounts.ts. */
  accounts?: string;
}

/** Settings after `checkSettings`: every one present or defaulted, and valid. */
export interface CheckedSettings {
  /**
   * The API key, sent as `X-Api-Key` (a secret). Stack config `vmapi:apiKey`, else the
   * environment's `VMAPI_API_KEY` (or `PAPERSPACE_API_KEY`).
   */
  apiKey: string;
  /**
   * The API's base URL, e.g. an emulator's `http://127.0.0.1:<port>`. Stack config `vmapi:baseUrl`,
   * else `VMAPI_BASE_URL` (or `PAPERSPACE_API_HOST`), else the production host.
   */
  baseUrl: string;
  /**
   * Multiplies the provider's polling delays and the time a create is given to take effect, in
   * (0, 1]: below 1 for an emulator whose clock runs faster. Stack config `vmapi:pollScale`, else
   * `VMAPI_POLL_SCALE`, else 1.
   */
  pollScale: number;
}

/**
 * Checks every setting, with the names a Pulumi user sets (`vmapi:...`), and resolves the
 * environment fallbacks. Throws `ConfigurationError`; sends nothing.
 */
export function checkSettings(settings: ProviderSettings, env = process.env): CheckedSettings {
  const pollScale = pollScaleOf(settings, env);
  try {
    const { apiKey, baseUrl } = resolveSettings({ apiKey: settings.apiKey, baseUrl: settings.baseUrl }, env);
    return { apiKey, baseUrl, pollScale };
  } catch (err) {
    if (!(err instanceof ConfigurationError)) throw err;
    if (err.code === "missing_api_key") {
      throw new ConfigurationError(
        "no API key: run `pulumi config set --secret vmapi:apiKey <key>`, or set VMAPI_API_KEY",
        { code: "missing_api_key" },
      );
    }
    // The environment's own settings (VMAPI_TIMEOUT_MS) already name their variable.
    if (!err.message.startsWith("baseUrl")) throw err;
    throw new ConfigurationError(`vmapi:${err.message} (or VMAPI_BASE_URL)`, { code: err.code });
  }
}

/** The polling scale: stack config `vmapi:pollScale`, else VMAPI_POLL_SCALE, else 1. */
export function pollScaleOf(settings: ProviderSettings, env = process.env): number {
  const raw = settings.pollScale ?? env.VMAPI_POLL_SCALE;
  const scale = raw === undefined || raw === "" ? 1 : Number(raw);
  if (!(scale > 0 && scale <= 1)) {
    throw new ConfigurationError(`vmapi:pollScale must be a number in (0, 1] (got ${JSON.stringify(raw)})`, {
      code: "invalid_setting",
    });
  }
  return scale;
}

/**
 * Retries per request in the provider: more than the client's default, because a `pulumi up`
 * is long and unattended, and a request that gives up can fail a whole update of billed machines.
 */
export const PROVIDER_MAX_RETRIES = 6;

/**
 * A client for one provider call, after every setting was checked. Missing values fall back to
 * VMAPI_* / PAPERSPACE_* env. The context gives its time, where its retries are reported, and
 * the account's request budget, which every call of the account in this process shares;
 * `overrides` tune it per use (e.g. a short fuse for `check`).
 *
 * Without overrides, the calls of one account share one client per context: a client holds no
 * state of a call (its limiter is the account's anyway), and a refresh of 1,000 resources would
 * otherwise build 1,000 clients, each with its own HTTP stack, for reads that take a few
 * microseconds each (docs/benchmarks.md, benchmark 6).
 */
export function clientFor(
  settings: ProviderSettings,
  context: ProviderContext,
  overrides: Partial<VmApiClientOptions> = {},
): VmApiClient {
  const checked = checkSettings(settings);
  if (Object.keys(overrides).length > 0) return newClient(checked, context, overrides);
  // Everything the client is built from: the account (never the key itself), the scale, and the
  // one setting the client reads from the environment.
  const key = [
    accountDigest(checked.baseUrl, checked.apiKey),
    checked.pollScale,
    process.env.VMAPI_TIMEOUT_MS,
  ].join(" ");
  return CLIENTS.get(context, key, () => newClient(checked, context, {}));
}

/** The shared clients of each context, by what they are built from (see `clientFor`). */
const CLIENTS = new PerAccount<VmApiClient>();

function newClient(
  { apiKey, baseUrl, pollScale }: CheckedSettings,
  context: ProviderContext,
  overrides: Partial<VmApiClientOptions>,
): VmApiClient {
  return new VmApiClient({
    maxRetries: PROVIDER_MAX_RETRIES,
    // How late a create may take effect is the API's time, like its lifecycle: scaled alike.
    createTimeoutMs: Math.max(1, Math.round(DEFAULT_CREATE_TIMEOUT_MS * pollScale)),
    // Retries show in the engine's output, so an API that is down is visibly being retried.
    onRetry: retryReporter(context.progress),
    ...context.timing,
    rateLimiter: rateLimiterFor(context, baseUrl, apiKey),
    ...overrides,
    apiKey,
    baseUrl,
  });
}

/**
 * The account `settings` talk to, as a key for what a process shares per account (the machine
 * watcher, list snapshots): the base URL and a digest of the key, so the key itself is never
 * held as a map key, logged or shown.
 */
export function accountKey(settings: ProviderSettings): string {
  const { apiKey, baseUrl } = checkSettings(settings);
  return accountDigest(baseUrl, apiKey);
}
