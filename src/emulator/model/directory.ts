/**
 * Read-only lists: users, networks and templates in the caller's scope, with equality filters.
 * Public templates (no team, no user) are visible to everyone.
 */
import type { Network, Template, User } from "../../contract/schemas";
import { seesNetwork, seesTemplate, seesUser } from "./scope";
import type { UserRecord } from "../state/records";
import type { Store } from "../state/store";
import { matchesFilters, type Filters } from "./filters";
import { networkView, templateView, userView } from "./views";

/** getUsers: the team's users, or just the caller on an individual account. */
export function listUsers(store: Store, user: UserRecord, filters: Filters): User[] {
  return store.data.users
    .filter((u) => seesUser(user, u))
    .map(userView)
    .filter((view) => matchesFilters(view, filters));
}

/** getNetworks: the account's networks. */
export function listNetworks(store: Store, user: UserRecord, filters: Filters): Network[] {
  return store.data.networks
    .filter((n) => seesNetwork(user, n))
    .map(networkView)
    .filter((view) => matchesFilters(view, filters));
}

/** getTemplates: public templates plus the account's own. */
export function listTemplates(store: Store, user: UserRecord, filters: Filters): Template[] {
  return store.data.templates
    .filter((t) => seesTemplate(user, t))
    .map(templateView)
    .filter((view) => matchesFilters(view, filters));
}
