/** Quotes an SQL identifier (schema, table) that cannot be passed as a parameter. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}
