import { fingerprintSync, loadModule, normalizeSync } from 'libpg-query'

export interface Statement {
  /** Equal for statements that differ only in constants, parameters, list lengths or the test's schema. */
  fingerprint: string
  /** The statement with its constants as $n, for people to read. */
  text: string
}

// Each test database is a schema named t_<label>_<8 hex> (createTestDatabase), the evaluation's
// corpora eval_<name>_<12 hex>: the same statement on two of them is one statement.
const GENERATED_NAME = /"?[a-z][a-z0-9_]*_[0-9a-f]{8,}"?/g
// A schema statement names whichever schema the caller's test made (a test's own fixed name too):
// DROP SCHEMA "eval_old" and DROP SCHEMA eval_x_1a2b… are the one statement the platform sends.
const SCHEMA_NAME = /\b(SCHEMA\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?)(?:"[^"]+"|\w+)/gi
// Postgres' normaliser masks the constants of plans, not of utility statements (COMMENT … IS
// 'last used <time>'): their string literals are masked here, so each run is not a new statement.
const LITERAL = /'(?:[^']|'')*'/g

let loaded: Promise<void> | undefined

/** Loads the Postgres parser (libpg_query, as WebAssembly) once; `fingerprint` needs it. */
export function loadParser(): Promise<void> {
  loaded ??= loadModule()
  return loaded
}

/**
 * What a statement is, as Postgres' own parser sees it (libpg_query's fingerprint, the one
 * pg_stat_statements-style tools use): `IN ($1,$2,$3)` and `IN ($1)` are one statement, so are two
 * VALUES lists of different lengths. Text the parser refuses (a test sending bad SQL on purpose)
 * is kept by its words, constants masked.
 */
export function fingerprint(sql: string): Statement {
  const source = sql.replace(GENERATED_NAME, 'generated_name').replace(SCHEMA_NAME, '$1generated_name').trim()
  try {
    const normalized = normalizeSync(source)
    const masked = normalized.replace(LITERAL, "'?'")
    if (masked !== normalized)
      return { fingerprint: fingerprintSync(masked), text: masked.replace(/\s+/g, ' ') }
    return { fingerprint: fingerprintSync(source), text: normalized.replace(/\s+/g, ' ') }
  } catch {
    const text = source
      .replace(LITERAL, '?')
      .replace(/\b\d+\b/g, '?')
      .replace(/\s+/g, ' ')
    return { fingerprint: `text:${text}`, text }
  }
}
