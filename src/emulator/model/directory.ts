/**
 * Read-only lists: users, networks and templates in the caller's scope, with equality filters.
 * Public templates (no team, no user) are visible to everyone.
 */
import type { Network, Template, User } from "../../contract/schemas";
import { seesNetwork, seesTemplate, seesUser } from "./scope";
import type { Stored, UserRecord } from "../state/records";
import type { Store } from "../state/store";
import { listed, type Filters } from "./filters";
import { networkView, templateView, userView } from "./views";

/** getUsers: the team's users, or just the caller on an individual account. */
export function listUsers(store: Store, user: Stored<UserRecord>, filters: Filters): User[] {
  return listed(store.users.all(), (u) => seesUser(user, u), userView, filters);
}

/** getNetworks: the account's networks. */
export function listNetworks(store: Store, user: Stored<UserRecord>, filters: Filters): Network[] {
  return listed(store.networks.all(), (n) => seesNetwork(user, n), networkView, filters);
}

/** getTemplates: public templates plus the account's own. */
export function listTemplates(store: Store, user: Stored<UserRecord>, filters: Filters): Template[] {
  return listed(store.templates.all(), (t) => seesTemplate(user, t), templateView, filters);
}
