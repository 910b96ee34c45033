import type { Pool } from '@rag/db'
import { parseSolrSynonyms } from '@rag/keyword'

/** A collection's own synonyms as stored: the rules as written, and when and by whom they changed. */
export interface CollectionSynonyms {
  collection: string
  rules: string
  ruleCount: number
  updatedAt: string
  updatedBy: string | null
}

/** Longest synonyms text kept (1 MiB: about 50,000 rules). */
export const MAX_SYNONYMS_BYTES = 1 << 20

const COLUMNS = `collection, rules, rule_count AS "ruleCount", updated_at AS "updatedAt", updated_by AS "updatedBy"`

/** A collection's synonyms, or null when it has none of its own. */
export async function readCollectionSynonyms(
  pool: Pick<Pool, 'query'>,
  collection: string,
): Promise<CollectionSynonyms | null> {
  const { rows } = await pool.query<CollectionSynonyms>(
    `SELECT ${COLUMNS} FROM collection_synonyms WHERE collection = $1`,
    [collection],
  )
  return rows[0] ?? null
}

/**
 * Replaces a collection's synonyms (Solr format). The rules are read first: a file that is not
 * rules (SynonymFileError, naming the line) changes nothing. Searches use them from their next
 * question on, without re-indexing (they are applied to questions, not to the index).
 */
export async function saveCollectionSynonyms(
  pool: Pick<Pool, 'query'>,
  collection: string,
  rules: string,
  updatedBy: string | null,
): Promise<CollectionSynonyms> {
  const groups = parseSolrSynonyms(rules)
  const { rows } = await pool.query<CollectionSynonyms>(
    `INSERT INTO collection_synonyms (collection, rules, rule_count, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (collection) DO UPDATE
        SET rules = excluded.rules, rule_count = excluded.rule_count, updated_by = excluded.updated_by,
            -- Strictly later, so a search's cache of the old rules never survives the change.
            updated_at = greatest(now(), collection_synonyms.updated_at + interval '1 microsecond')
     RETURNING ${COLUMNS}`,
    [collection, rules, groups.length, updatedBy],
  )
  return rows[0] as CollectionSynonyms
}

/** Removes a collection's own synonyms; whether it had any. */
export async function deleteCollectionSynonyms(
  pool: Pick<Pool, 'query'>,
  collection: string,
): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM collection_synonyms WHERE collection = $1', [collection])
  return (rowCount ?? 0) > 0
}
