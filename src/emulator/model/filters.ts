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
