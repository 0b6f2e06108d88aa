/**
 * The ResourceDelegation implementation. A delegation cannot be read or deleted through the
 * API, so read keeps what create learned and delete only forgets it (with a warning).
 */
import type * as pulumi from "@pulumi/pulumi";
import { DELEGATION_LIFETIME_MS } from "../../contract/constants";
import { nowOf } from "../account/context";
import { proveAccount } from "../shared/references";
import type { CheckResult, EngineProps, ResourceImplementation } from "../shared/resourceImplementation";
import { UNKNOWN } from "../shared/unknown";
import {
  DELEGATION_INPUT_KEYS,
  DelegationSettingsSchema,
  type CreatedDelegation,
  type DelegationInputs,
  type DelegationOutputs,
} from "./resourceDelegationModel";

const DEFAULT_RENEW_BEFORE_SECONDS = 1800;

/** The ResourceDelegation implementation's own type. */
export type ResourceDelegationImplementation = ResourceImplementation<
  DelegationInputs,
  DelegationOutputs,
  CreatedDelegation
>;

/**
 * The ResourceDelegation implementation both doors dispatch to (its lookups prove the key; the
 * clock of its account's context decides expiry).
 */
export const resourceDelegationProvider: ResourceDelegationImplementation = {
  async check(_olds, news, call) {
    await proveAccount(call.account);
    return checkDelegation(news);
  },

  async diff(_id, olds, news, call) {
    const replaces: string[] = [];
    if (JSON.stringify(olds.machineIds) !== JSON.stringify(news.machineIds)) replaces.push("machineIds");
    if (expiresSoon(olds, news, nowOf(call.account.context))) replaces.push("expiresAt");
    const diff = { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
    const changed = DELEGATION_INPUT_KEYS.filter(
      (key) => news[key] !== undefined && JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
    );
    return { ...diff, changed };
  },

  async create(inputs, call) {
    const machineIds = inputs.machineIds;
    const delegation = await call.account.client.resourceDelegations.create({
      machine: { ids: machineIds },
    });
    const expiresAt = new Date(Date.parse(delegation.dtCreated) + DELEGATION_LIFETIME_MS).toISOString();
    return {
      id: String(delegation.id),
      outs: {
        ...inputs,
        delegationId: delegation.id,
        accessTokenId: delegation.accessTokenId,
        dtCreated: delegation.dtCreated,
        expiresAt,
        isEnabled: delegation.isEnabled,
      },
    };
  },

  async read(id, props) {
    // No API reads a delegation back: what create learned is the truth until it expires.
    if (props.accessTokenId === undefined) {
      throw new Error(
        `resource delegation ${id}: the API cannot read a delegation back, so one made outside this stack cannot be read (ResourceDelegation.get)`,
      );
    }
    const { machineIds, renewBeforeSeconds } = props;
    return {
      id,
      props,
      inputs: Object.fromEntries(
        Object.entries({ machineIds, renewBeforeSeconds }).filter(([, v]) => v !== undefined),
      ),
    };
  },

  async update(_id, olds, news) {
    // Only renewBeforeSeconds can change in place: it is the provider's own setting.
    return { outs: { ...olds, renewBeforeSeconds: news.renewBeforeSeconds } };
  },

  async delete(id, props, call) {
    call.progress(
      `resource delegation ${id}: the API has no delete; it was removed from the stack and its token stops working at ${String(props.expiresAt)}`,
    );
  },
};

function checkDelegation(news: EngineProps): CheckResult<DelegationInputs> {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const ids = news.machineIds;
  const valid =
    Array.isArray(ids) && ids.length > 0 && ids.every((id) => typeof id === "string" && id.length > 0);
  if (ids !== UNKNOWN && !valid) {
    failures.push({ property: "machineIds", reason: "machineIds must be a non-empty list of machine ids" });
  }
  const renew = news.renewBeforeSeconds;
  const renewRule = DelegationSettingsSchema.shape.renewBeforeSeconds;
  if (renew !== undefined && renew !== UNKNOWN && !renewRule.safeParse(renew).success) {
    failures.push({
      property: "renewBeforeSeconds",
      reason: `renewBeforeSeconds must be a whole number of seconds between 0 and 14399 (the lifetime is 4 h; got ${JSON.stringify(renew)})`,
    });
  }
  return { inputs: news, failures };
}

function expiresSoon(olds: DelegationOutputs, news: DelegationInputs, now: number): boolean {
  const expiresAt = Date.parse(String(olds.expiresAt));
  if (Number.isNaN(expiresAt)) return false;
  const renew =
    typeof news.renewBeforeSeconds === "number" ? news.renewBeforeSeconds : DEFAULT_RENEW_BEFORE_SECONDS;
  return now + renew * 1000 >= expiresAt;
}
