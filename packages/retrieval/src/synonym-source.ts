import type { Pool } from '@rag/db'
import { type SynonymTable, sudachiSynonyms } from '@rag/keyword'
import { type SynonymCompiler, synonymCompiler } from './compiled-synonyms.ts'
import { statisticsScope } from './keyword-statistics.ts'
import type { SearchFilters } from './ranked-chunk.ts'

/** The synonyms a search uses: the built-in dictionary with the searched collection's own rules. */
export interface SynonymSource {
  forSearch(filters: SearchFilters): Promise<SynonymTable | null>
}

/** No synonyms (SYNONYMS=off): the question's words as typed. */
export const NO_SYNONYMS: SynonymSource = { forSearch: async () => null }

interface Compiled {
  version: string
  /** The table, or null when its rules could not be compiled in time (the dictionary alone then). */
  table: Promise<SynonymTable | null>
}

/**
 * Synonyms from the built-in table (loaded once, on first use) and the rules of the collection a
 * search reads: a collection's rules are its editors' words for its documents, so they apply to
 * searches of that one collection only (named, or the only one the search can read) — never to
 * another's, nor to a search over several (which uses the dictionary alone). The rules are read at
 * each search so a change applies at once, and compiled once per version, in a thread
 * (compiled-synonyms.ts), while other searches go on.
 */
export function synonymSource(
  pool: Pick<Pool, 'query'>,
  builtIn: 'sudachi' | 'off',
  compiler: SynonymCompiler = synonymCompiler(),
): SynonymSource {
  if (builtIn === 'off') return NO_SYNONYMS
  const compiled = new Map<string, Compiled>()
  return {
    async forSearch(filters) {
      const scope = statisticsScope(filters)
      const base = sudachiSynonyms()
      if (scope?.length === 0) return base
      const { rows } = await pool.query<{ collection: string; version: string; rules: string | null }>(
        `WITH scope AS (
           SELECT collection FROM corpus_stats WHERE $1::text[] IS NULL OR collection = ANY($1::text[])
         )
         SELECT s.collection, s.updated_at::text AS version,
                -- The rules themselves only when not already compiled at this version.
                CASE WHEN s.collection || ' ' || s.updated_at::text = ANY($2::text[]) THEN NULL ELSE s.rules END AS rules
           FROM collection_synonyms s
          WHERE s.collection = (SELECT min(collection) FROM scope) AND (SELECT count(*) FROM scope) = 1`,
        [scope, [...compiled].map(([name, entry]) => `${name} ${entry.version}`)],
      )
      const row = rows[0]
      if (!row) return base
      const { collection } = row
      let entry = compiled.get(collection)
      if (!entry || entry.version !== row.version) {
        // Stored rules were checked (and bounded) when they were saved.
        entry = { version: row.version, table: compiler.compile(row.rules ?? '').catch(() => null) }
        compiled.set(collection, entry)
      }
      const own = await entry.table
      return own ? own.over(await base) : base
    },
  }
}
