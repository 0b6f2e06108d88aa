/**
 * POST /resourceDelegations/create: a token (accessTokenId) that works as X-Api-Key for show,
 * utilization, start, stop and restart of the listed machines, for 4 hours (auth.ts).
 */
import type { z } from "zod";
import type { CreateDelegationRequestSchema } from "../../contract/requestSchemas";
import type { ResourceDelegation } from "../../contract/schemas";
import { asCaller } from "./auth";
import { machineFor } from "./permissions";
import type { Stored, UserRecord } from "../state/records";
import type { Store } from "../state/store";
import { delegationView } from "./views";

/** The machines a new delegation lists. */
export type DelegationArgs = z.output<typeof CreateDelegationRequestSchema>;

/** Creates a delegation; every listed machine must be one `user` may delegate (owner or team admin). */
export function createDelegation(
  store: Store,
  user: Stored<UserRecord>,
  args: DelegationArgs,
): ResourceDelegation {
  const ids = [...new Set(args.machine?.ids ?? [])];
  for (const id of ids) machineFor(store, asCaller(user), id, "delegate");
  const delegation = store.delegations.add({
    id: store.nextCounter("delegationId"),
    machineIds: ids,
    isEnabled: true,
    accessTokenId: store.randomChars(32),
    dtCreated: store.now(),
    userId: user.id,
  });
  return delegationView(delegation);
}
