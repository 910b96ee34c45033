import type { Pool } from '@rag/db'

/**
 * A benchmark corpus loaded as a bulk import would be: the chunks' keyword index and the
 * statistics triggers off while rows go in, then the index built once and the statistics counted
 * once, exactly as the triggers would have kept them. Row by row, the triggers' upserts of every
 * word and character pair take most of the time (100k distinct chunks: 161 s; a million: ~30 min).
 */
export async function bulkLoad<T>(
  pool: Pool,
  load: () => Promise<T>,
  { embedded = false }: { embedded?: boolean } = {},
): Promise<T> {
  await pool.query(`DROP INDEX chunks_collection_terms_idx;
    ALTER TABLE chunks DISABLE TRIGGER chunks_stats_insert;
    ALTER TABLE sections DISABLE TRIGGER sections_stats_insert`)
  const loaded = await load()
  const client = await pool.connect()
  try {
    // The embedded PGlite server, a 32-bit process, takes at most 2 GB − 1 kB (and has less to give).
    await client.query(`SET maintenance_work_mem = '${embedded ? '512MB' : '2GB'}'`)
    await client.query(
      'CREATE INDEX chunks_collection_terms_idx ON chunks USING gin (collection, terms) WITH (fastupdate = off)',
    )
    await client.query('BEGIN')
    // The statistics of what is in the tables now, as chunks_stats_added and sections_stats_added count them.
    await client.query(`SELECT recount_keyword_stats();
      ALTER TABLE chunks ENABLE TRIGGER chunks_stats_insert;
      ALTER TABLE sections ENABLE TRIGGER sections_stats_insert`)
    await client.query('COMMIT')
    await client.query('ANALYZE term_stats')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
  return loaded
}

/**
 * Brings freshly loaded tables to the state a serving database's are in before anything is timed:
 * vacuumed (visibility map and hint bits set) and checkpointed. Otherwise autovacuum's pass over a
 * newly inserted million rows and the checkpointer's writes of the pages it and the first reads
 * dirtied run during the timed questions, on the same 2 cores. Cheap when already done (a kept schema).
 */
export async function settleLoadedTables(pool: Pool): Promise<string> {
  const started = performance.now()
  await pool.query('VACUUM (ANALYZE) chunks, sections, documents, term_stats')
  // CHECKPOINT needs superuser or pg_checkpoint: without it the writes are left to the checkpointer.
  const checkpointed = await pool.query('CHECKPOINT').then(
    () => 'checkpointed',
    (error: Error) => `not checkpointed (${error.message})`,
  )
  return `vacuumed and ${checkpointed} in ${((performance.now() - started) / 1000).toFixed(1)} s`
}
