/**
 * Who is calling (docs/api.md, "Accounts, keys and who may do what"): the X-Api-Key header names
 * an account user, or a resource delegation's accessTokenId (a decision of this project), which
 * expires 4 hours (times the time scale) after its dtCreated. The key itself is never logged or
 * echoed.
 */
import { DELEGATION_LIFETIME_MS } from "../../contract/constants";
import { forbidden, unauthorized } from "./apiError";
import { iso } from "../state/clock";
import type { DelegationRecord, Stored, UserRecord } from "../state/records";
import type { KeyOwner, Store } from "../state/store";

/**
 * An authenticated caller: the holder of a key that passed the checks, an account user or a
 * delegation token acting on its listed machines.
 */
export type Caller = KeyOwner;

/** Resolves the X-Api-Key value; 401 when missing, unknown, disabled or expired. */
export function authenticate(store: Store, key: string | undefined): Caller {
  if (key === undefined || key === "") throw unauthorized("missing X-Api-Key header: send your API key");
  const owner = store.keyOwner(key);
  if (owner === undefined) throw unauthorized("invalid API key");
  if (owner.kind === "user") return owner;
  if (!owner.delegation.isEnabled) throw unauthorized("delegation token is disabled");
  const expires = delegationExpiry(store, owner.delegation);
  if (store.now() >= expires) throw unauthorized(`delegation token expired at ${iso(expires)}`);
  return owner;
}

/** When a delegation token stops working: 4 hours after dtCreated, times the time scale. */
export function delegationExpiry(store: Store, delegation: Stored<DelegationRecord>): number {
  return delegation.dtCreated + Math.round(DELEGATION_LIFETIME_MS * store.timeScale);
}

/** The account user behind `caller`; a delegation token may only act on machines (403). */
export function accountUser(caller: Caller, action: string): Stored<UserRecord> {
  if (caller.kind === "delegation") {
    throw forbidden(
      `a delegation token cannot ${action}: it only allows show, utilization, start, stop and restart of its machines`,
    );
  }
  return caller.user;
}

/** An account user as a caller, for the permission table once the caller is known to be a user. */
export function asCaller(user: Stored<UserRecord>): Caller {
  return { kind: "user", user };
}

/** The caller as an account administrator (individual owner or team admin); 403 otherwise. */
export function accountAdmin(caller: Caller, action: string): Stored<UserRecord> {
  const user = accountUser(caller, action);
  if (user.role !== "admin")
    throw forbidden(`only account administrators may ${action}; team members cannot`);
  return user;
}

/**
 * Who a key belongs to, as a label that is safe to show: the user's id, `delegation <id>`, or
 * `unknown key` / `no key` (all unknown keys share one bucket, so made-up keys cannot grow the
 * table). Each user holds at most one key, so the label is as fine-grained as the key.
 */
export function callerLabel(store: Store, key: string | undefined): string {
  if (key === undefined || key === "") return "no key";
  const owner = store.keyOwner(key);
  if (owner === undefined) return "unknown key";
  return owner.kind === "user" ? owner.user.id : `delegation ${owner.delegation.id}`;
}
