/**
 * Who is calling (docs/api.md, "Accounts, keys and who may do what"): the X-Api-Key header names
 * an account user, or a resource delegation's accessTokenId (a decision of this project), which
 * expires 4 hours (times the time scale) after its dtCreated. The key itself is never logged or
 * echoed.
 */
import { DELEGATION_LIFETIME_MS } from "../../contract/constants";
import { forbidden, unauthorized } from "./apiError";
import { iso } from "../state/clock";
import type { DelegationRecord, UserRecord } from "../state/records";
import type { Store } from "../state/store";

/** An authenticated caller: an account user, or a delegation token acting on listed machines. */
export type Caller =
  { kind: "user"; user: UserRecord } | { kind: "delegation"; delegation: DelegationRecord };

/** Resolves the X-Api-Key value; 401 when missing, unknown, disabled or expired. */
export function authenticate(store: Store, key: string | undefined): Caller {
  if (key === undefined || key === "") throw unauthorized("missing X-Api-Key header: send your API key");
  const user = store.data.users.find((u) => u.apiKey !== null && u.apiKey === key);
  if (user !== undefined) return { kind: "user", user };
  const delegation = store.data.delegations.find((d) => d.accessTokenId === key);
  if (delegation === undefined) throw unauthorized("invalid API key");
  if (!delegation.isEnabled) throw unauthorized("delegation token is disabled");
  const expires = delegationExpiry(store, delegation);
  if (store.now() >= expires) throw unauthorized(`delegation token expired at ${iso(expires)}`);
  return { kind: "delegation", delegation };
}

/** When a delegation token stops working: 4 hours after dtCreated, times the time scale. */
export function delegationExpiry(store: Store, delegation: DelegationRecord): number {
  return delegation.dtCreated + Math.round(DELEGATION_LIFETIME_MS * store.timeScale);
}

/** The account user behind `caller`; a delegation token may only act on machines (403). */
export function accountUser(caller: Caller, action: string): UserRecord {
  if (caller.kind === "delegation") {
    throw forbidden(
      `a delegation token cannot ${action}: it only allows show, utilization, start, stop and restart of its machines`,
    );
  }
  return caller.user;
}

/** An account user as a caller, for the permission table once the caller is known to be a user. */
export function asCaller(user: UserRecord): Caller {
  return { kind: "user", user };
}

/** The caller as an account administrator (individual owner or team admin); 403 otherwise. */
export function accountAdmin(caller: Caller, action: string): UserRecord {
  const user = accountUser(caller, action);
  if (user.role !== "admin")
    throw forbidden(`only account administrators may ${action}; team members cannot`);
  return user;
}
