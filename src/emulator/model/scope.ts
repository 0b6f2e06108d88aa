/**
 * Who may see what: the one place that decides whether a record is in a caller's scope. A team
 * account sees its team's records, an individual account its own; public templates (no team, no
 * user) are everyone's. What is out of scope does not exist for the caller: the services answer
 * 404, never 403, so an id never proves that another account has it (docs/api.md, "Accounts, keys
 * and who may do what"). What a caller may DO with a record it sees is permissions.ts.
 */
import type {
  MachineRecord,
  NetworkRecord,
  ScriptRecord,
  TemplateRecord,
  UserRecord,
  Stored,
} from "../state/records";

/** Whether a record owned by a team or a user is in `user`'s scope (their team, or themselves). */
export function inScope(
  user: Stored<UserRecord>,
  owner: { teamId: string | null; userId?: string | null },
): boolean {
  return user.teamId !== null
    ? owner.teamId === user.teamId
    : owner.teamId === null && owner.userId === user.id;
}

/** Whether `user` sees `machine` (same individual owner, or same team). */
export function seesMachine(user: Stored<UserRecord>, machine: Stored<MachineRecord>): boolean {
  return inScope(user, machine);
}

/** Whether `user` sees `other`: the team's users, or only themselves on an individual account. */
export function seesUser(user: Stored<UserRecord>, other: Stored<UserRecord>): boolean {
  return inScope(user, { teamId: other.teamId, userId: other.id });
}

/** Whether `user` sees `network`: the account's own networks. */
export function seesNetwork(user: Stored<UserRecord>, network: Stored<NetworkRecord>): boolean {
  return inScope(user, network);
}

/** Whether `user` sees `template`: public templates, and the account's own. */
export function seesTemplate(user: Stored<UserRecord>, template: Stored<TemplateRecord>): boolean {
  return (template.teamId === null && template.userId === null) || inScope(user, template);
}

/** Whether `user` sees `script`: the team's scripts on a team account, else the user's own. */
export function seesScript(user: Stored<UserRecord>, script: Stored<ScriptRecord>): boolean {
  return inScope(
    user,
    script.ownerType === "team" ? { teamId: script.ownerId } : { teamId: null, userId: script.ownerId },
  );
}

/** The owner a new script of `user` gets: the team on a team account, otherwise the user. */
export function scriptOwnerOf(user: Stored<UserRecord>): { ownerType: "user" | "team"; ownerId: string } {
  return user.teamId !== null
    ? { ownerType: "team", ownerId: user.teamId }
    : { ownerType: "user", ownerId: user.id };
}
