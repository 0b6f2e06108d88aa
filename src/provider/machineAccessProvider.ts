/**
 * The MachineAccess implementation over setMachineAccess. The API cannot list a machine's
 * accessors, so read only checks that the machine still exists.
 */
import type * as pulumi from "@pulumi/pulumi";
import { provesAbsence } from "../client/errors";
import { PROCESS_CONTEXT, type ProviderContext } from "./context";
import { proveAccount, touched } from "./references";
import { clientFor, type ProviderSettings } from "./settings";
import { UNKNOWN } from "./unknown";

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
      const failures = (["machineId", "userId"] as const)
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
      return { inputs: news, failures };
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
    return { id: `${machineId}/${userId}`, outs: { machineId, userId } };
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
    try {
      await clientFor(settings, context).machines.setAccess(String(props.machineId), {
        userId: String(props.userId),
        enableAccess: false,
      });
    } catch (err) {
      // A 404 status: the machine or the user is gone, and with it the grant.
      if (!provesAbsence(err)) throw err;
    }
  },
});

/** The MachineAccess implementation the runtime dispatches to. */
export const machineAccessProvider = createMachineAccessProvider(PROCESS_CONTEXT);
