/**
 * POST /resourceDelegations/create: a token (accessTokenId) that works as X-Api-Key for show,
 * utilization, start, stop and restart of the listed machines, for 4 hours (auth.ts).
 */
import { CreateDelegationRequestSchema } from "../client/requests";
import type { ResourceDelegation } from "../client/schemas";
import { accountUser, type Caller } from "./auth";
import { machineFor } from "./permissions";
import type { DelegationRecord } from "./records";
import type { Store } from "./store";
import { parseWith } from "./validate";
import { delegationView } from "./views";

/** Creates a delegation; every listed machine must be one the caller may delegate (owner or team admin). */
export function createDelegation(store: Store, caller: Caller, body: unknown): ResourceDelegation {
  const user = accountUser(caller, "create resource delegations");
  const req = parseWith(CreateDelegationRequestSchema, body ?? {});
  const ids = [...new Set(req.machine?.ids ?? [])];
  for (const id of ids) machineFor(store, caller, id, "delegate");
  const delegation: DelegationRecord = {
    id: store.nextCounter("delegationId"),
    machineIds: ids,
    isEnabled: true,
    accessTokenId: store.random.chars(32),
    dtCreated: store.now(),
    userId: user.id,
  };
  store.data.delegations.push(delegation);
  store.dirty = true;
  return delegationView(delegation);
}
