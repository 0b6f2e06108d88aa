/**
 * List filters to a query string (src/client/core/filterQuery.ts).
 */
import { ValidationError } from "../../../../src/client/core/errors";
import { filtersToQuery } from "../../../../src/client/core/filterQuery";
import { MACHINE_FILTER_FIELDS } from "../../../../src/contract/listFilters";

describe("filtersToQuery", () => {
  it("filtersToQuery: booleans, numbers and null → strings, null as 'null'", () => {
    const query = filtersToQuery(
      { state: "off", cpus: 4, updatesPending: false, scriptId: null, gpu: undefined },
      MACHINE_FILTER_FIELDS,
    );
    expect(query).toEqual({ state: "off", cpus: "4", updatesPending: "false", scriptId: "null" });
  });

  it("filtersToQuery: unknown filter (id instead of machineId) → ValidationError listing the filters", () => {
    expect(() => filtersToQuery({ id: "ps1" }, MACHINE_FILTER_FIELDS)).toThrow(
      /unknown filter id; filters are: machineId/,
    );
  });

  it("filtersToQuery: object value → ValidationError", () => {
    expect(() => filtersToQuery({ name: {} as never }, MACHINE_FILTER_FIELDS)).toThrow(ValidationError);
  });
});
