/**
 * What every `check` shares to look things up in the API: a client on a short fuse (a preview
 * must fail in seconds when the API is down, not after six retries), the process's lookup cache,
 * and the account behind the key, asked once per process. That one request also proves the key
 * and the endpoint, so a wrong key fails `preview` even when every input is unchanged.
 */
import type { VmApiClient } from "../../client/client";
import { AuthenticationError, ConnectionError } from "../../client/core/errors";
import type { User } from "../../contract/schemas";
import type { Account } from "../account/account";
import type { LookupCache } from "../account/lookups";

/** Per-request timeout of `check`'s lookups. */
export const CHECK_TIMEOUT_MS = 3_000;
/**
 * Retries of `check`'s lookups when no answer arrives: one, so an unreachable API fails a preview
 * within seconds. A server that answers 429 or 503 is retried as during `up`.
 */
export const CHECK_UNANSWERED_RETRIES = 1;

/** What the lookups of one `check` share. */
export interface ReferenceContext {
  /** Built on first use: a check whose inputs are all unchanged needs none after the probe. */
  readonly client: VmApiClient;
  cache: LookupCache;
  /** Cache scope of this endpoint and key: the account's digest. */
  scope: string;
  baseUrl: string;
}

/** The context for one `check` of `account`; sends nothing. */
export function referenceContext(account: Account): ReferenceContext {
  let client: VmApiClient | undefined;
  return {
    get client() {
      client ??= account.clientWith({
        timeoutMs: CHECK_TIMEOUT_MS,
        retryPolicy: { maxUnansweredRetries: CHECK_UNANSWERED_RETRIES },
      });
      return client;
    },
    cache: account.context.lookups,
    scope: account.key,
    baseUrl: account.baseUrl,
  };
}

/** Who is behind the key: the account's users, and its team (null for an individual account). */
export interface AccountMembers {
  users: User[];
  teamId: string | null;
}

/** The account's members, once per process and key. Throws a preview-worded error for a bad key or endpoint. */
export async function membersOf(ctx: ReferenceContext): Promise<AccountMembers> {
  const users = await ask(ctx, "users", () => ctx.client.users.list());
  return { users, teamId: users.find((user) => user.teamId)?.teamId ?? null };
}

/**
 * The members of `account`, for a `check` that needs no other lookup: asking proves the key and
 * the endpoint, so a wrong key fails `preview` even when every input is unchanged.
 */
export function proveAccount(account: Account): Promise<AccountMembers> {
  return membersOf(referenceContext(account));
}

/**
 * The one item `list` finds by id (`what` names it in the cache), or null. A null is not
 * remembered: the thing may be created later in the same `up`.
 */
export function findById<T>(
  ctx: ReferenceContext,
  what: string,
  list: () => Promise<T[]>,
): Promise<T | null> {
  return ask(
    ctx,
    what,
    async () => (await list())[0] ?? null,
    (found) => found !== null,
  );
}

/** A cached lookup under this context's scope; failures are reworded for a preview. */
export async function ask<T>(
  ctx: ReferenceContext,
  what: string,
  load: () => Promise<T>,
  keep?: (value: T) => boolean,
): Promise<T> {
  try {
    return await ctx.cache.get(`${ctx.scope} ${what}`, load, keep);
  } catch (err) {
    throw previewError(err, ctx.baseUrl);
  }
}

/** The failure of a lookup as a preview should say it: what is wrong and which setting to fix. */
export function previewError(err: unknown, baseUrl: string): unknown {
  if (err instanceof AuthenticationError) {
    return new Error(`vmapi: the API at ${baseUrl} refused the key: ${err.message}; check vmapi:apiKey`);
  }
  if (err instanceof ConnectionError) {
    return new Error(
      `vmapi: cannot reach the API at ${baseUrl} (${err.message}); preview checks inputs against it: start it, or fix vmapi:baseUrl`,
    );
  }
  return err;
}

/** True when the resource is new (or being replaced) or any of `keys` changed since `olds`. */
export function touched(
  olds: Record<string, unknown>,
  inputs: Record<string, unknown>,
  keys: readonly string[],
) {
  if (Object.keys(olds).length === 0) return true;
  return keys.some((key) => JSON.stringify(olds[key]) !== JSON.stringify(inputs[key]));
}
