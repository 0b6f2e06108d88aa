/** Networks of the account or team. */
import type { HttpClient, RequestOptions } from "./http";
import { filtersToQuery } from "./filterQuery";
import { NETWORK_FILTER_FIELDS, type NetworkFilters } from "../contract/listFilters";
import { NetworkListSchema, type Network } from "../contract/schemas";

/** The network endpoint of the API. */
export class Networks {
  constructor(private readonly http: HttpClient) {}

  /** Networks of the user or team, matching the equality `filters`. */
  async list(filters: NetworkFilters = {}, options?: RequestOptions): Promise<Network[]> {
    const query = filtersToQuery(filters, NETWORK_FILTER_FIELDS);
    return this.http.get("/networks/getNetworks", query, NetworkListSchema, options);
  }
}
