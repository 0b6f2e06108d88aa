/**
 * The ResourceDelegation implementation. A delegation cannot be read or deleted through the
 * API, so read keeps what create learned and delete only forgets it (with a warning).
 */
import type * as pulumi from "@pulumi/pulumi";
import { DELEGATION_LIFETIME_MS } from "../../contract/constants";
import { PROCESS_CONTEXT, nowOf, type ProviderContext } from "../shared/context";
import { printableFailures } from "../shared/checks";
import { optionFailures, withReplaceOnChanges } from "../shared/operationOptions";
import { proveAccount } from "../shared/references";
import { clientFor, type ProviderSettings } from "../shared/settings";
import { UNKNOWN } from "../shared/unknown";

type Props = Record<string, unknown>;

const DEFAULT_RENEW_BEFORE_SECONDS = 1800;

/** The ResourceDelegation implementation on `context` (its lookups prove the key; its clock decides expiry). */
export function createResourceDelegationProvider(context: ProviderContext) {
  return {
    ...delegationOperations(context),
    async check(_olds: Props, news: Props, settings: ProviderSettings): Promise<pulumi.dynamic.CheckResult> {
      await proveAccount(settings, context);
      return checkDelegation(news);
    },
  };
}

function checkDelegation(news: Props): pulumi.dynamic.CheckResult {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const ids = news.machineIds;
  const valid =
    Array.isArray(ids) && ids.length > 0 && ids.every((id) => typeof id === "string" && id.length > 0);
  if (ids !== UNKNOWN && !valid) {
    failures.push({ property: "machineIds", reason: "machineIds must be a non-empty list of machine ids" });
  }
  const renew = news.renewBeforeSeconds;
  if (
    renew !== undefined &&
    renew !== UNKNOWN &&
    !(typeof renew === "number" && renew >= 0 && renew < 14400)
  ) {
    failures.push({
      property: "renewBeforeSeconds",
      reason: "renewBeforeSeconds must be between 0 and 14399 (the lifetime is 4 h)",
    });
  }
  failures.push(...optionFailures(news, ["machineIds", "renewBeforeSeconds"], "ResourceDelegation"));
  return { inputs: news, failures: printableFailures(failures, news) };
}

const delegationOperations = (context: ProviderContext) => ({
  async diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
    const replaces: string[] = [];
    if (JSON.stringify(olds.machineIds) !== JSON.stringify(news.machineIds)) replaces.push("machineIds");
    if (expiresSoon(olds, news, nowOf(context))) replaces.push("expiresAt");
    const diff = { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
    const changed = ["machineIds", "renewBeforeSeconds"].filter(
      (key) => news[key] !== undefined && JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
    );
    return withReplaceOnChanges(diff, changed, news);
  },

  async create(inputs: Props, settings: ProviderSettings): Promise<pulumi.dynamic.CreateResult> {
    const machineIds = inputs.machineIds as string[];
    const delegation = await clientFor(settings, context).resourceDelegations.create({
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

  async read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
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

  async update(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
    // Only renewBeforeSeconds can change in place: it is the provider's own setting.
    return { outs: { ...olds, renewBeforeSeconds: news.renewBeforeSeconds } };
  },

  async delete(id: string, props: Props): Promise<void> {
    context.progress(
      `resource delegation ${id}: the API has no delete; it was removed from the stack and its token stops working at ${String(props.expiresAt)}`,
    );
  },
});

/** The ResourceDelegation implementation the runtime dispatches to. */
export const resourceDelegationProvider = createResourceDelegationProvider(PROCESS_CONTEXT);

function expiresSoon(olds: Props, news: Props, now: number): boolean {
  const expiresAt = Date.parse(String(olds.expiresAt));
  if (Number.isNaN(expiresAt)) return false;
  const renew =
    typeof news.renewBeforeSeconds === "number" ? news.renewBeforeSeconds : DEFAULT_RENEW_BEFORE_SECONDS;
  return now + renew * 1000 >= expiresAt;
}
