/**
 * Who may do what to a machine, as a table (docs/emulator.md, "Permissions"). The API fixes
 * start/stop/restart (owner only) and destroy (owner or team admin); the rest are this project's
 * decisions (docs/api.md, "Accounts, keys and who may do what").
 */
import { forbidden, notFound } from "./apiError";
import type { Caller } from "./auth";
import { seesMachine } from "./scope";
import type { MachineRecord, Stored } from "../state/records";
import type { Store } from "../state/store";

/** Roles a caller can have on one machine. `member` is any other user of the machine's account. */
export interface MachineRoles {
  owner: boolean;
  teamAdmin: boolean;
  member: boolean;
  delegation: boolean;
}

/** Machine actions. */
export type MachineAction =
  | "show"
  | "utilization"
  | "start"
  | "stop"
  | "restart"
  | "update"
  | "destroy"
  | "setAccess"
  | "attachScript"
  | "delegate";

const all = { owner: true, teamAdmin: true, member: true, delegation: true };
const ownerOnly = { owner: true, teamAdmin: false, member: false, delegation: true };
const ownerOrAdmin = { owner: true, teamAdmin: true, member: false, delegation: false };

/** The permission table. A caller is allowed when any role they hold is true in the row. */
export const MACHINE_PERMISSIONS: Readonly<Record<MachineAction, MachineRoles>> = {
  show: all,
  utilization: all,
  start: ownerOnly,
  stop: ownerOnly,
  restart: ownerOnly,
  update: ownerOrAdmin,
  destroy: ownerOrAdmin,
  setAccess: ownerOrAdmin,
  attachScript: ownerOrAdmin,
  delegate: ownerOrAdmin,
};

/**
 * The live machine `id` if `caller` may perform `action` on it. Unknown or out-of-scope ids are
 * 404; visible but not allowed is 403. A delegation token gets 403 for machines it does not list.
 */
export function machineFor(
  store: Store,
  caller: Caller,
  id: string,
  action: MachineAction,
): Stored<MachineRecord> {
  const row = MACHINE_PERMISSIONS[action];
  if (caller.kind === "delegation") {
    if (!row.delegation || !caller.delegation.machineIds.includes(id)) {
      throw forbidden(`this delegation token does not allow ${action} on machine ${id}`);
    }
    const machine = store.machines.live(id);
    if (machine === undefined) throw notFound(`machineId ${id} not found`);
    return machine;
  }
  const user = caller.user;
  const machine = store.machines.live(id);
  if (machine === undefined || !seesMachine(user, machine)) throw notFound(`machineId ${id} not found`);
  const isOwner = machine.userId === user.id;
  const isTeamAdmin = user.teamId !== null && user.role === "admin";
  if ((isOwner && row.owner) || (isTeamAdmin && row.teamAdmin) || row.member) return machine;
  const who = row.teamAdmin ? "the machine's owner or the team administrator" : "the machine's owner";
  throw forbidden(`only ${who} may ${action} machine ${id}`);
}
