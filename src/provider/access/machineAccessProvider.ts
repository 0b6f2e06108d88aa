/**
 * The MachineAccess implementation over setMachineAccess. The API cannot list a machine's
 * accessors, so read only checks that the machine still exists.
 */
import type * as pulumi from "@pulumi/pulumi";
import { provesAbsence } from "../../client/core/errors";
import { withinTimeout } from "../shared/operationOptions";
import { proveAccount, touched } from "../shared/references";
import type { ResourceImplementation } from "../shared/resourceImplementation";
import { UNKNOWN } from "../shared/unknown";
import { ACCESS_INPUT_KEYS, type AccessInputs, type AccessOutputs } from "./machineAccessModel";

/** The MachineAccess implementation's own type. */
export type MachineAccessImplementation = ResourceImplementation<AccessInputs, AccessOutputs>;

/**
 * The MachineAccess implementation both doors dispatch to; `check` proves the key and, when
 * `userId` changed, that the user belongs to the account, with the lookups of the call's account.
 */
export const machineAccessProvider: MachineAccessImplementation = {
  async check(olds, news, call) {
    const account = await proveAccount(call.account);
    const failures: pulumi.dynamic.CheckFailure[] = ACCESS_INPUT_KEYS.filter(
      (key) => news[key] !== UNKNOWN && (typeof news[key] !== "string" || news[key] === ""),
    ).map((key) => ({ property: key, reason: `${key} is required` }));
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

  async diff(_id, olds, news) {
    const replaces = ACCESS_INPUT_KEYS.filter((key) => olds[key] !== news[key]);
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: true };
  },

  async create(inputs, call) {
    const machineId = String(inputs.machineId);
    const userId = String(inputs.userId);
    await call.account.client.machines.setAccess(machineId, { userId, enableAccess: true });
    return { id: `${machineId}/${userId}`, outs: { machineId, userId } };
  },

  async read(id, stored, call) {
    // MachineAccess.get gives only the id, `<machineId>/<userId>`.
    const [machineId, userId] = id.split("/");
    const props = { ...stored, machineId: stored.machineId ?? machineId, userId: stored.userId ?? userId };
    try {
      await call.account.client.machines.get(String(props.machineId));
    } catch (err) {
      if (provesAbsence(err)) return {};
      throw err;
    }
    return { id, props, inputs: { machineId: props.machineId, userId: props.userId } };
  },

  async update() {
    throw new Error("MachineAccess cannot be updated in place (this is a bug in pulumi-vmapi)");
  },

  async delete(_id, props, call) {
    const revoke = async (signal?: AbortSignal) => {
      try {
        await call.account.client.machines.setAccess(
          String(props.machineId),
          { userId: String(props.userId), enableAccess: false },
          { signal },
        );
      } catch (err) {
        // A 404 status: the machine or the user is gone, and with it the grant.
        if (!provesAbsence(err)) throw err;
      }
    };
    return withinTimeout(call.timeout, revoke);
  },
};
