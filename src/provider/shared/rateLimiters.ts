/**
 * One request budget per account in a provider context: every client the providers build for an
 * account (a base URL and a key) shares one `RateLimiter`. A module of its own, apart from
 * context.ts, so that the context (made when the runtime loads) imports nothing that imports it
 * back.
 */
import { createHash } from "node:crypto";
import { RateLimiter } from "../../client/core/rateLimiter";
import type { ProviderContext } from "./context";
import { throttleReporter } from "./progress";

/**
 * An account as a key for what a process shares per account (request budgets, the machine
 * watcher, list snapshots): the base URL and a digest of the key, so that no map, dump or
 * inspection of the context ever holds or shows the key itself.
 */
export function accountDigest(baseUrl: string, apiKey: string): string {
  return `${baseUrl} ${createHash("sha256").update(apiKey).digest("hex").slice(0, 32)}`;
}

/**
 * The request budget every caller of one account shares in this context, made on first use on
 * the context's clock, reporting throttling to its progress.
 */
export function rateLimiterFor(context: ProviderContext, baseUrl: string, apiKey: string): RateLimiter {
  const key = accountDigest(baseUrl, apiKey);
  let limiter = context.rateLimiters.get(key);
  if (limiter === undefined) {
    const { sleep, now } = context.timing;
    limiter = new RateLimiter({ sleep, now, onThrottle: throttleReporter(context.progress, baseUrl) });
    context.rateLimiters.set(key, limiter);
  }
  return limiter;
}
