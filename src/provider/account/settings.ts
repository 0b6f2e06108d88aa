/**
 * Provider settings: what `configure` read from the stack config (`vmapi:apiKey`, a secret,
 * `vmapi:baseUrl` and `vmapi:pollScale`), falling back to the client's environment variables at
 * call time. Every operation checks all of them before its first request (`checkSettings`), so a
 * bad setting never fails an operation half-way, after a machine was created.
 */
import { z } from "zod";
import { ConfigurationError } from "../../client/core/errors";
import { resolveSettings } from "../../client/core/settings";

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

/**
 * The rules of the numeric settings: `pollScaleOf` applies them, and the package schema reads
 * their types here (`pollScale` is a fraction, not a whole number).
 */
export const SettingRulesSchema = z.object({
  /** A multiplier in (0, 1]. */
  pollScale: z.number().gt(0).max(1),
});
/** The numeric settings, as their rules type them. */
export type SettingRules = z.infer<typeof SettingRulesSchema>;

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
  if (!SettingRulesSchema.shape.pollScale.safeParse(scale).success) {
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
