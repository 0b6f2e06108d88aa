/** Machine templates: GET /templates/getTemplates, a route known from the public clients (docs/api.md). */
import type { HttpClient, RequestOptions } from "../core/http";
import { filtersToQuery } from "../core/filterQuery";
import { TEMPLATE_FILTER_FIELDS, type TemplateFilters } from "../../contract/listFilters";
import { OPERATIONS } from "../../contract/operations";
import type { Template } from "../../contract/schemas";

/** The template endpoint of the API. */
export class Templates {
  constructor(private readonly http: HttpClient) {}

  /** Templates visible to the user or team, matching the equality `filters`. */
  async list(filters: TemplateFilters = {}, options?: RequestOptions): Promise<Template[]> {
    const query = filtersToQuery(filters, TEMPLATE_FILTER_FIELDS);
    const { path, answer } = OPERATIONS.getTemplates;
    return this.http.get(path, query, answer.schema, options);
  }
}
