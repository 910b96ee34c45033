/** Quotes an SQL identifier (schema, table) that cannot be passed as a parameter. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/**
 * A list of constants for an SQL `IN (…)` written into the text (not a parameter), so that a
 * partial index whose predicate names the same constants is used: e.g. the contract's finished
 * states in `status NOT IN (…)`.
 */
export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')
}
