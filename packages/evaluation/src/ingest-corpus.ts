import type { Pool } from '@rag/db'
import { registerDocument } from '@rag/ingest'
import type { Logger } from '@rag/log'
import type { Producer } from '@rag/queue'
import type { Dataset } from './dataset.ts'

export const EVAL_COLLECTION = 'eval'

/**
 * Uploads the dataset's documents through the upload path (unchanged ones are no-ops, so a
 * corpus is reused across runs) and waits for the pipeline to finish them. Returns the
 * document id → dataset id map that turns hits back into the dataset's documents.
 */
export async function ingestCorpus(
  deps: { pool: Pool; producer: Producer; logger: Logger },
  dataset: Dataset,
  { uploadDir, onProgress }: { uploadDir: string; onProgress?: (done: number, total: number) => void },
): Promise<{ documents: Map<string, string>; failed: { docId: string; error: string }[]; reused: boolean }> {
  const documents = new Map<string, string>()
  let changed = 0
  const queue = [...dataset.documents]
  const total = queue.length
  const register = async () => {
    for (let doc = queue.shift(); doc; doc = queue.shift()) {
      const { document, action } = await registerDocument(
        deps,
        { uploadDir, maxBytes: 100 * 1024 * 1024 },
        { filename: doc.filename, data: doc.data, collection: EVAL_COLLECTION },
      )
      documents.set(document.id, doc.docId)
      if (action !== 'unchanged') changed++
    }
  }
  await Promise.all(Array.from({ length: 8 }, register))
  for (;;) {
    const { rows } = await deps.pool.query<{ finished: number }>(
      `SELECT count(*)::int AS finished FROM documents WHERE id = ANY($1::uuid[]) AND status IN ('ready', 'failed')`,
      [[...documents.keys()]],
    )
    const finished = rows[0]?.finished ?? 0
    onProgress?.(finished, total)
    if (finished >= total) break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const { rows: failed } = await deps.pool.query<{ id: string; error: string }>(
    `SELECT id::text, coalesce(error, '') AS error FROM documents WHERE id = ANY($1::uuid[]) AND status = 'failed'`,
    [[...documents.keys()]],
  )
  return {
    documents,
    failed: failed.map((row) => ({ docId: documents.get(row.id) ?? row.id, error: row.error })),
    reused: changed === 0,
  }
}
