/**
 * The MachineAccess implementation over setMachineAccess. The API cannot list a machine's
 * accessors, so read only checks that the machine still exists.
 */
import type * as pulumi from "@pulumi/pulumi";
import { provesAbsence } from "../../client/errors";
import { PROCESS_CONTEXT, type ProviderContext } from "../shared/context";
import { printableFailures } from "../shared/checks";
import { customTimeout, optionFailures, withinBound } from "../shared/operationOptions";
import { proveAccount, touched } from "../shared/references";
import { clientFor, type ProviderSettings } from "../shared/settings";
import { UNKNOWN } from "../shared/unknown";

type Props = Record<string, unknown>;

/**
 * The MachineAccess implementation; `check` proves the key and, when `userId` changed, that the
 * user belongs to the account, with the lookups of its context.
 */
export function createMachineAccessProvider(context: ProviderContext) {
  return {
    ...accessOperations(context),
    async check(olds: Props, news: Props, settings: ProviderSettings): Promise<pulumi.dynamic.CheckResult> {
      const account = await proveAccount(settings, context);
      const failures: pulumi.dynamic.CheckFailure[] = (["machineId", "userId"] as const)
        .filter((key) => news[key] !== UNKNOWN && (typeof news[key] !== "string" || news[key] === ""))
        .map((key) => ({ property: key, reason: `${key} is required` }));
      const { userId } = news;
      const known = typeof userId === "string" && userId !== UNKNOWN && userId !== "";
      if (known && touched(olds, news, ["userId"]) && !account.users.some((u) => u.id === userId)) {
        failures.push({
          property: "userId",
          reason: `userId ${userId} is not a user of this account (see getUsers)`,
        });
      }
      failures.push(...optionFailures(news, ["machineId", "userId"], "MachineAccess"));
      return { inputs: news, failures: printableFailures(failures, news) };
    },
  };
}

const accessOperations = (context: ProviderContext) => ({
  async diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
    const replaces = (["machineId", "userId"] as const).filter((key) => olds[key] !== news[key]);
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: true };
  },

  async create(inputs: Props, settings: ProviderSettings): Promise<pulumi.dynamic.CreateResult> {
    const machineId = String(inputs.machineId);
    const userId = String(inputs.userId);
    await clientFor(settings, context).machines.setAccess(machineId, { userId, enableAccess: true });
    // The options travel on in the outputs, which delete is given (customTimeouts.delete).
    const options =
      inputs.__customTimeouts === undefined ? {} : { __customTimeouts: inputs.__customTimeouts };
    return { id: `${machineId}/${userId}`, outs: { machineId, userId, ...options } };
  },

  async read(id: string, stored: Props, settings: ProviderSettings): Promise<pulumi.dynamic.ReadResult> {
    // MachineAccess.get gives only the id, `<machineId>/<userId>`.
    const [machineId, userId] = id.split("/");
    const props = { ...stored, machineId: stored.machineId ?? machineId, userId: stored.userId ?? userId };
    try {
      await clientFor(settings, context).machines.get(String(props.machineId));
    } catch (err) {
      if (provesAbsence(err)) return {};
      throw err;
    }
    return { id, props, inputs: { machineId: props.machineId, userId: props.userId } };
  },

  async update(): Promise<pulumi.dynamic.UpdateResult> {
    throw new Error("MachineAccess cannot be updated in place (this is a bug in pulumi-vmapi)");
  },

  async delete(_id: string, props: Props, settings: ProviderSettings): Promise<void> {
    const revoke = async (signal?: AbortSignal) => {
      try {
        await clientFor(settings, context).machines.setAccess(
          String(props.machineId),
          { userId: String(props.userId), enableAccess: false },
          { signal },
        );
      } catch (err) {
        // A 404 status: the machine or the user is gone, and with it the grant.
        if (!provesAbsence(err)) throw err;
      }
    };
    const bound = customTimeout(props, "delete");
    return bound ? withinBound(bound, revoke) : revoke();
  },
});

/** The MachineAccess implementation the runtime dispatches to. */
export const machineAccessProvider = createMachineAccessProvider(PROCESS_CONTEXT);
