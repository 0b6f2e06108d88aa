/**
 * How the list endpoints apply their equality filters, once parsed from the query string
 * (validate.ts): the rule every list service shares.
 */
/** Equality filters of a list, each value as sent (a string), checked against the list's fields. */
export type Filters = Readonly<Record<string, string>>;

/** Values compare as strings (`String(value) === filter`); the filter "null" matches null. */
export function matchesFilters(record: Readonly<Record<string, unknown>>, filters: Filters): boolean {
  return Object.entries(filters).every(([field, wanted]) => {
    const value = record[field];
    return value === null || value === undefined ? wanted === "null" : String(value) === wanted;
  });
}

/**
 * What a list endpoint answers: the records the caller sees, as the wire shows them, that match
 * the filters (which compare the wire's fields).
 */
export function listed<R, V extends Readonly<Record<string, unknown>>>(
  records: readonly R[],
  sees: (record: R) => boolean,
  view: (record: R) => V,
  filters: Filters,
): V[] {
  return records
    .filter(sees)
    .map(view)
    .filter((v) => matchesFilters(v, filters));
}
