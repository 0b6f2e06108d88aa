/**
 * Where the client's settings come from: the constructor's arguments, else `VMAPI_*` variables,
 * else the `PAPERSPACE_*` variables of the service's original tools. Read when a client is built,
 * never at module load, so a provider that `require`s the client at call time sees its own
 * environment and no key is captured in a module-level value.
 */
import { DEFAULT_BASE_URL } from "../../contract/constants";
import { ConfigurationError } from "./errors";

/** Settings a caller may give; every field falls back to the environment or a default. */
export interface ClientSettingsInput {
  /** API key sent as `X-Api-Key`. Else `VMAPI_API_KEY`, else `PAPERSPACE_API_KEY`. */
  apiKey?: string;
  /** Base URL. Else `VMAPI_BASE_URL`, else `PAPERSPACE_API_HOST`, else https://api.paperspace.io. */
  baseUrl?: string;
  /** Per-request timeout in milliseconds. Else `VMAPI_TIMEOUT_MS`, else 30 000. */
  timeoutMs?: number;
  /** Retries after a failed attempt (default 3; 0 disables retrying). */
  maxRetries?: number;
  /**
   * How long a create (machine, script) may take to take effect, in milliseconds (default
   * 600 000): its answer is waited for this long on its open connection, and after a failure
   * that the API may still act on, nothing is sent again until this long after it was sent.
   */
  createTimeoutMs?: number;
}

/** Settings after resolution: everything present and checked. */
export interface ResolvedSettings {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  createTimeoutMs: number;
}

/** Per-request timeout when none is given. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * How long a create may take to take effect when none is given: "several minutes" of a slow or
 * overloaded API, far beyond the 30 s other requests get.
 */
export const DEFAULT_CREATE_TIMEOUT_MS = 600_000;
/** Retries when none are given. */
export const DEFAULT_MAX_RETRIES = 3;

type Env = Readonly<Record<string, string | undefined>>;

/** Pure: resolves the settings from `input` and `env`; throws `ConfigurationError` on a gap. */
export function resolveSettings(input: ClientSettingsInput = {}, env: Env = process.env): ResolvedSettings {
  const apiKey = firstNonEmpty(input.apiKey, env.VMAPI_API_KEY, env.PAPERSPACE_API_KEY);
  if (apiKey === undefined) {
    throw new ConfigurationError(
      "no API key: pass { apiKey } to VmApiClient or set VMAPI_API_KEY (or PAPERSPACE_API_KEY)",
      { code: "missing_api_key" },
    );
  }
  const baseUrl = checkBaseUrl(
    firstNonEmpty(input.baseUrl, env.VMAPI_BASE_URL, env.PAPERSPACE_API_HOST) ?? DEFAULT_BASE_URL,
  );
  const timeoutMs =
    input.timeoutMs !== undefined
      ? checkCount("timeoutMs", input.timeoutMs, 1)
      : (countFromEnv(env, "VMAPI_TIMEOUT_MS", 1) ?? DEFAULT_TIMEOUT_MS);
  const maxRetries = checkCount("maxRetries", input.maxRetries ?? DEFAULT_MAX_RETRIES, 0);
  const createTimeoutMs = checkCount(
    "createTimeoutMs",
    input.createTimeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS,
    1,
  );
  return { apiKey, baseUrl, timeoutMs, maxRetries, createTimeoutMs };
}

function firstNonEmpty(...values: (string | undefined)[]): string | undefined {
  return values.map((v) => v?.trim()).find((v): v is string => v !== undefined && v !== "");
}

/** Accepts http(s) URLs; drops a trailing slash so paths join cleanly. */
function checkBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`baseUrl must be an absolute http(s) URL (got ${JSON.stringify(value)})`, {
      code: "invalid_setting",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`baseUrl must use http or https (got ${url.protocol})`, {
      code: "invalid_setting",
    });
  }
  return value.replace(/\/+$/, "");
}

/**
 * An integer setting from the environment (`undefined` when unset or empty), refused with the
 * variable's name. A process that cannot set options (a Pulumi plugin) is tuned this way.
 */
function countFromEnv(env: Env, name: string, min: number): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigurationError(`${name} must be an integer ≥ ${min} (got ${JSON.stringify(raw)})`, {
      code: "invalid_setting",
    });
  }
  return value;
}

function checkCount(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigurationError(`${name} must be an integer ≥ ${min} (got ${value})`, {
      code: "invalid_setting",
    });
  }
  return value;
}
