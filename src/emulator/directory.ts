/**
 * Read-only lists: users, networks and templates in the caller's scope, with equality filters.
 * Public templates (no team, no user) are visible to everyone.
 */
import { NETWORK_FILTER_FIELDS, TEMPLATE_FILTER_FIELDS, USER_FILTER_FIELDS } from "../client/requests";
import type { Network, Template, User } from "../client/schemas";
import { accountUser, inScope, type Caller } from "./auth";
import type { Store } from "./store";
import { matchesFilters, parseFilters } from "./validate";
import { networkView, templateView, userView } from "./views";

/** getUsers: the team's users, or just the caller on an individual account. */
export function listUsers(store: Store, caller: Caller, query: URLSearchParams): User[] {
  const user = accountUser(caller, "list users");
  const filters = parseFilters(query, USER_FILTER_FIELDS);
  return store.data.users
    .filter((u) => inScope(user, { teamId: u.teamId, userId: u.id }))
    .map(userView)
    .filter((view) => matchesFilters(view, filters));
}

/** getNetworks: the account's networks. */
export function listNetworks(store: Store, caller: Caller, query: URLSearchParams): Network[] {
  const user = accountUser(caller, "list networks");
  const filters = parseFilters(query, NETWORK_FILTER_FIELDS);
  return store.data.networks
    .filter((n) => inScope(user, n))
    .map(networkView)
    .filter((view) => matchesFilters(view, filters));
}

/** getTemplates: public templates plus the account's own. */
export function listTemplates(store: Store, caller: Caller, query: URLSearchParams): Template[] {
  const user = accountUser(caller, "list templates");
  const filters = parseFilters(query, TEMPLATE_FILTER_FIELDS);
  return store.data.templates
    .filter((t) => (t.teamId === null && t.userId === null) || inScope(user, t))
    .map(templateView)
    .filter((view) => matchesFilters(view, filters));
}
