/** Users of the account or team. */
import type { HttpClient, RequestOptions } from "../core/http";
import { filtersToQuery } from "../core/filterQuery";
import { USER_FILTER_FIELDS, type UserFilters } from "../../contract/listFilters";
import { OPERATIONS } from "../../contract/operations";
import type { User } from "../../contract/schemas";

/** The user endpoint of the API. */
export class Users {
  constructor(private readonly http: HttpClient) {}

  /** Users of the user's account or team, matching the equality `filters`. */
  async list(filters: UserFilters = {}, options?: RequestOptions): Promise<User[]> {
    const { path, answer } = OPERATIONS.getUsers;
    return this.http.get(path, filtersToQuery(filters, USER_FILTER_FIELDS), answer.schema, options);
  }
}
