/**
 * Provider settings: what `configure` read from the stack config (`vmapi:apiKey`, a secret, and
 * `vmapi:baseUrl`), falling back to the client's environment variables at call time.
 */
import { VmApiClient, type VmApiClientOptions } from "../client/client";

/** Settings as the stub hands them to the runtime; never serialized, never logged. */
export interface ProviderSettings {
  apiKey?: string;
  baseUrl?: string;
  /** `vmapi:pollScale`: multiplies the provider's polling delays (for a time-scaled emulator). */
  pollScale?: string;
}

/** The polling scale: stack config `vmapi:pollScale`, else VMAPI_POLL_SCALE, else 1. */
export function pollScaleOf(settings: ProviderSettings): number {
  const raw = settings.pollScale ?? process.env.VMAPI_POLL_SCALE;
  const scale = raw === undefined || raw === "" ? 1 : Number(raw);
  if (!(scale > 0 && scale <= 1)) {
    throw new Error(`vmapi:pollScale must be a number in (0, 1] (got ${JSON.stringify(raw)})`);
  }
  return scale;
}

/**
 * @internal Testing hook: extra client options (e.g. a `sleep` that advances an emulator's
 * manual clock). Empty in every real run.
 */
export const providerClientHooks: { options: Partial<VmApiClientOptions> } = { options: {} };

/**
 * Retries per request in the provider: more than the client's default, because a `pulumi up`
 * is long and unattended, and a request that gives up can fail a whole update of billed machines.
 */
export const PROVIDER_MAX_RETRIES = 6;

/** A client for one provider call. Missing values fall back to VMAPI_* / PAPERSPACE_* env. */
export function clientFor(settings: ProviderSettings): VmApiClient {
  return new VmApiClient({
    maxRetries: PROVIDER_MAX_RETRIES,
    ...providerClientHooks.options,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
  });
}
