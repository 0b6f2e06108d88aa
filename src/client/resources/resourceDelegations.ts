/** Resource delegations: time-limited tokens for selected machines (they expire after 4 hours). */
import type { HttpClient, RequestOptions } from "../core/http";
import { OPERATIONS } from "../../contract/operations";
import type { CreateDelegationRequest } from "../../contract/requestSchemas";
import { ResourceDelegationResponseSchema, type ResourceDelegation } from "../../contract/schemas";
import { validateInput } from "../core/validate";

/** The resource delegation endpoint of the API. */
export class ResourceDelegations {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a delegation for `machine.ids`. The answer may be the object or a one-element array
   * (older servers); both give the object. Not repeated after an ambiguous failure: a repeat
   * would mint a second token.
   */
  async create(request: CreateDelegationRequest, options: RequestOptions = {}): Promise<ResourceDelegation> {
    const { path, body: bodySpec } = OPERATIONS.createDelegation;
    const body = validateInput(bodySpec.schema, request, "create resource delegation");
    // The tolerant reader of the document's answer: older servers sent a one-element array of it.
    return this.http.post(path, body, {
      schema: ResourceDelegationResponseSchema,
      idempotent: false,
      signal: options.signal,
    });
  }
}
