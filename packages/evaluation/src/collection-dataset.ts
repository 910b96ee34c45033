import { collectionExists, listCollections } from '@rag/access'
import type { Pool } from '@rag/db'
import { listEvaluationCases } from '@rag/questions'
import { type Dataset, DatasetError } from './dataset.ts'

/** A live collection's evaluation set as a dataset, and the map from its documents to their names. */
export interface CollectionDataset {
  dataset: Dataset
  /** Document id → file name: how a source's document is named in the report. */
  documents: Map<string, string>
}

/**
 * A collection's own evaluation set (made from feedback in the web app, or by hand), over the
 * collection as it is — nothing ingested: each case is a question whose expected source is a
 * source id of the collection (its document is the one that must come first), or none (refused).
 */
export async function collectionDataset(pool: Pool, collection: string): Promise<CollectionDataset> {
  if (!(await collectionExists(pool, collection))) {
    const names = (await listCollections(pool, null)).map((known) => known.name)
    throw new DatasetError(
      `no collection ${JSON.stringify(collection)}; the collections: ${names.join(', ') || '(none yet)'}`,
    )
  }
  const cases = await listEvaluationCases(pool, collection)
  if (cases.length === 0)
    throw new DatasetError(
      `the collection ${JSON.stringify(collection)} has no evaluation cases: make some from feedback in the web app (Feedback view) or with POST /feedback/{id}/case`,
    )
  const { rows: documents } = await pool.query<{ id: string; filename: string }>(
    `SELECT id::text, filename FROM documents WHERE collection = $1 AND status = 'ready'`,
    [collection],
  )
  const expected = [...new Set(cases.flatMap((c) => (c.expectedSource ? [c.expectedSource] : [])))]
  const { rows: sources } = await pool.query<{ sourceId: string; filename: string }>(
    `SELECT DISTINCT ch.source_id AS "sourceId", d.filename
       FROM chunks ch JOIN documents d ON d.id = ch.document_id AND d.active_hash = ch.content_hash
      WHERE d.collection = $1 AND ch.source_id = ANY($2::text[])`,
    [collection, expected],
  )
  const documentOf = new Map(sources.map((row) => [row.sourceId, row.filename]))
  return {
    dataset: {
      name: `collection ${collection}`,
      format: 'questions',
      documents: documents.map((document) => ({
        docId: document.filename,
        filename: document.filename,
        data: new Uint8Array(),
      })),
      questions: cases.map((c) => ({
        id: c.id,
        query: c.question,
        // A source the collection no longer holds is expected all the same: the case then fails, and says why.
        gold: c.expectedSource
          ? { [documentOf.get(c.expectedSource) ?? `${c.expectedSource} (gone)`]: 1 }
          : null,
        ...(c.expectedSource ? { expectedSource: c.expectedSource } : {}),
        keywords: [],
      })),
    },
    documents: new Map(documents.map((document) => [document.id, document.filename])),
  }
}
