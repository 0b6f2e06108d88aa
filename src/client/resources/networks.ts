/** Networks of the account or team. */
import type { HttpClient, RequestOptions } from "../core/http";
import { filtersToQuery } from "../core/filterQuery";
import { NETWORK_FILTER_FIELDS, type NetworkFilters } from "../../contract/listFilters";
import { OPERATIONS } from "../../contract/operations";
import type { Network } from "../../contract/schemas";

/** The network endpoint of the API. */
export class Networks {
  constructor(private readonly http: HttpClient) {}

  /** Networks of the user or team, matching the equality `filters`. */
  async list(filters: NetworkFilters = {}, options?: RequestOptions): Promise<Network[]> {
    const query = filtersToQuery(filters, NETWORK_FILTER_FIELDS);
    const { path, answer } = OPERATIONS.getNetworks;
    return this.http.get(path, query, answer.schema, options);
  }
}
