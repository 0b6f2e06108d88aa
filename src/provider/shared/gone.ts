/**
 * Deciding that a resource is gone. Machines are billed and hold people's work, so only a genuine
 * absence counts: a 404 status for the resource itself (`provesAbsence`), confirmed by a read.
 * A "not found" message under a 400, a 5xx, a timeout: the resource stays in the stack. So does a
 * machine whose user is not in the account of the key in use: the API hides another account's
 * machines behind the same 404 (docs/api.md, "Accounts, keys and who may do what").
 */
import { provesAbsence } from "../../client/core/errors";
import type { VmApiClient } from "../../client/client";
import { AbsenceNotProvenError, StillPresentError } from "./errors";

export interface GoneOptions {
  /** Delay after the first show that still finds it (default 250 ms); doubles up to 10 s. */
  firstDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Polls `show` until it proves the resource absent, or fails after `timeoutMs`. */
export async function pollUntilGone(
  show: () => Promise<{ state?: string }>,
  timeoutMs: number,
  options: GoneOptions = {},
): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const started = now();
  let delay = options.firstDelayMs ?? 250;
  let last = "unknown";
  while (now() - started < timeoutMs) {
    try {
      last = (await show()).state ?? last;
    } catch (err) {
      if (provesAbsence(err)) return;
      throw err;
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 10_000);
  }
  throw new StillPresentError(`still present after ${Math.round(timeoutMs / 1000)} s (last state: ${last})`);
}

/**
 * After an action answered "not found": succeeds only when a read proves the resource absent.
 * If the read finds it, the claim was about something else (a network, a template, a proxy's
 * route) and the caller must keep the resource: throws saying so. Other read failures propagate.
 */
export async function confirmAbsent(show: () => Promise<object>, what: string, claim: Error): Promise<void> {
  let found: { state?: unknown };
  try {
    found = await show();
  } catch (err) {
    if (provesAbsence(err)) return;
    throw err;
  }
  const state = typeof found.state === "string" ? ` (state ${found.state})` : "";
  throw new StillPresentError(
    `${what} still exists${state} although the API answered: ${claim.message}; it stays in the stack`,
    { cause: claim },
  );
}

/**
 * Before a 404 drops machine `id` from the stack: its recorded user (`props.userId`) must be one of
 * the users of the key's account, or the 404 only says that this key cannot see it (a key changed
 * to another account's). Throws naming the owner and what to do; the machine stays in the stack.
 * State without a recorded user: the 404 is taken as proof. One request (the account's users), asked with
 * the operation's own client and its retries, and only on this rare path, so never from a cache
 * that could predate a team user made in this process. `absence`, the 404 that claimed the machine
 * gone, is the refusal's `cause` when given.
 */
export async function requireOwnerInAccount(
  id: string,
  props: Record<string, unknown>,
  client: VmApiClient,
  absence?: unknown,
): Promise<void> {
  const owner = typeof props.userId === "string" && props.userId !== "" ? props.userId : undefined;
  if (owner === undefined) return;
  const users = await client.users.list();
  if (users.some((user) => user.id === owner)) return;
  throw new AbsenceNotProvenError(
    `machine ${id} belongs to user ${owner}, who is not in the account of the API key in use (its users: ${users.map((user) => user.id).join(", ")}); ` +
      `the API answers 404 for another account's machines, so this does not prove the machine gone and it stays in the stack. ` +
      `Use the key of the account that created it (vmapi:apiKey, or the resource's account); if you know the machine is gone, ` +
      `\`pulumi state delete\` its URN`,
    { cause: absence },
  );
}
