import { createHash } from 'node:crypto'
import { CHUNKER_VERSION } from '@rag/chunking'
import type { ChunkingSection, ModelsSection } from '@rag/config'
import { type Pool, quoteIdentifier } from '@rag/db'
import type { Dataset } from '@rag/evaluation'
import { ANALYZER_VERSION } from '@rag/keyword'

/**
 * The schema an evaluation corpus lives in: named after what shapes the index (the documents,
 * the chunker and its settings, the keyword analyser, the embedding model), so an unchanged corpus is found and reused, a changed one
 * gets a fresh schema, and the user's own schema is never written to.
 */
export function evalSchemaOf(
  dataset: Dataset,
  chunking: ChunkingSection,
  models: Pick<ModelsSection, 'embedding'>,
): string {
  const hash = createHash('sha256')
  hash.update(
    JSON.stringify([
      CHUNKER_VERSION,
      ANALYZER_VERSION,
      chunking.size,
      chunking.overlap,
      chunking.parentMaxChars,
      models.embedding,
    ]),
  )
  for (const doc of dataset.documents) {
    hash.update(doc.filename)
    hash.update(doc.data)
  }
  return `${EVAL_SCHEMA_PREFIX}${dataset.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 30)}_${hash.digest('hex').slice(0, 12)}`
}

const MARK = 'rag eval corpus; last used '
/** What every evaluation corpus's name starts with: only schemas so named and marked are ever dropped. */
export const EVAL_SCHEMA_PREFIX = 'eval_'

/** Records that this evaluation schema was just used (its comment), for dropOldEvalSchemas. */
export async function markEvalSchemaUsed(pool: Pool, schema: string): Promise<void> {
  // The timestamp is ours (no outside text in the statement); COMMENT takes no parameters.
  await pool.query(`COMMENT ON SCHEMA ${quoteIdentifier(schema)} IS '${MARK}${new Date().toISOString()}'`)
}

/**
 * Drops evaluation schemas beyond the `keep` most recently used (the current one always stays):
 * each corpus is a full index, and a dataset, chunking or model change makes a new one. Only
 * schemas this tool marked and named (`prefix`) are considered; nothing else in the database is
 * touched.
 */
export async function dropOldEvalSchemas(
  pool: Pool,
  current: string,
  keep: number,
  prefix = EVAL_SCHEMA_PREFIX,
): Promise<string[]> {
  const { rows } = await pool.query<{ name: string; note: string | null }>(
    `SELECT nspname AS name, obj_description(oid, 'pg_namespace') AS note
       FROM pg_namespace
      WHERE nspname <> $1 AND obj_description(oid, 'pg_namespace') LIKE $2 AND starts_with(nspname, $3)`,
    [current, `${MARK}%`, prefix],
  )
  const lastUsed = (note: string | null) => Date.parse(note?.slice(MARK.length) ?? '') || 0
  const stale = rows.sort((a, b) => lastUsed(b.note) - lastUsed(a.note)).slice(Math.max(0, keep - 1))
  for (const { name } of stale) await pool.query(`DROP SCHEMA ${quoteIdentifier(name)} CASCADE`)
  return stale.map(({ name }) => name)
}
