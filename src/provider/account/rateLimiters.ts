/**
 * One request budget per account in a provider context: every client the providers build for an
 * account shares one `RateLimiter`. A module of its own, apart from context.ts, so that the
 * context imports nothing that imports it back.
 */
import { RateLimiter } from "../../client/core/rateLimiter";
import type { ProviderContext } from "./context";
import { throttleReporter } from "./progress";

/**
 * The request budget every caller of one account shares in this context, by the account's digest
 * (`Account.key`, never the key itself), made on first use on the context's clock, reporting
 * throttling of the API at `baseUrl` to the context's progress.
 */
export function rateLimiterFor(context: ProviderContext, accountKey: string, baseUrl: string): RateLimiter {
  let limiter = context.rateLimiters.get(accountKey);
  if (limiter === undefined) {
    const { sleep, now } = context.timing;
    limiter = new RateLimiter({ sleep, now, onThrottle: throttleReporter(context.progress, baseUrl) });
    context.rateLimiters.set(accountKey, limiter);
  }
  return limiter;
}
