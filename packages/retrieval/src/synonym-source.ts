import type { Pool } from '@rag/db'
import { parseSolrSynonyms, SynonymTable, sudachiSynonyms } from '@rag/keyword'
import { statisticsScope } from './keyword-statistics.ts'
import type { SearchFilters } from './ranked-chunk.ts'

/** The synonyms a search uses: the built-in dictionary with the searched collections' own rules. */
export interface SynonymSource {
  forSearch(filters: SearchFilters): Promise<SynonymTable | null>
}

/** No synonyms (SYNONYMS=off): the question's words as typed. */
export const NO_SYNONYMS: SynonymSource = { forSearch: async () => null }

/**
 * Synonyms from the built-in table (loaded once, on first use) and the rules of the collections a
 * search reads (collection_synonyms, read at each search so a change applies at once; each
 * collection's parsed table kept while its row is unchanged). A search of every collection uses
 * every collection's rules.
 */
export function synonymSource(pool: Pick<Pool, 'query'>, builtIn: 'sudachi' | 'off'): SynonymSource {
  if (builtIn === 'off') return NO_SYNONYMS
  const parsed = new Map<string, { version: string; table: SynonymTable }>()
  return {
    async forSearch(filters) {
      const scope = statisticsScope(filters)
      const [base, { rows }] = await Promise.all([
        sudachiSynonyms(),
        pool.query<{ collection: string; version: string; rules: string | null }>(
          `SELECT collection, updated_at::text AS version,
                  -- The rules themselves only when not already parsed at this version.
                  CASE WHEN collection || ' ' || updated_at::text = ANY($2::text[]) THEN NULL ELSE rules END AS rules
             FROM collection_synonyms WHERE $1::text[] IS NULL OR collection = ANY($1::text[])
            ORDER BY collection`,
          [scope, [...parsed].map(([collection, entry]) => `${collection} ${entry.version}`)],
        ),
      ])
      let table = base
      for (const row of rows) {
        let entry = parsed.get(row.collection)
        if (!entry || entry.version !== row.version) {
          // Stored rules were checked when they were saved.
          entry = { version: row.version, table: new SynonymTable(parseSolrSynonyms(row.rules ?? '')) }
          parsed.set(row.collection, entry)
        }
        table = entry.table.over(table)
      }
      return table
    },
  }
}
