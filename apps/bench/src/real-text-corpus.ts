import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Pool } from '@rag/db'
import { toSql } from 'pgvector'
import { type AnalysedChunk, analysePassage, type ParentTerms, parentTerms } from './analysed-passage.ts'

/** Real passages and real questions from the shared evaluation sets (English and Japanese). */
export interface RealText {
  passages: string[]
  questions: string[]
}

/** SQuAD v1.1 dev and JaQuAD dev (paragraphs and their questions), SciFact (abstracts and queries). */
export async function readRealText(sharedDir: string): Promise<RealText> {
  const passages: string[] = []
  const questions: string[] = []
  const squadLike = async (path: string) => {
    const data = JSON.parse(await readFile(path, 'utf8')) as {
      data: { paragraphs: { context: string; qas: { question: string }[] }[] }[]
    }
    for (const article of data.data)
      for (const paragraph of article.paragraphs) {
        passages.push(paragraph.context)
        questions.push(...paragraph.qas.map((qa) => qa.question))
      }
  }
  await squadLike(join(sharedDir, 'data/squad-v1.1-dev/dev-v1.1.json'))
  const jaquad = join(sharedDir, 'data/jaquad-dev')
  for (const file of (await readdir(jaquad)).filter((name) => name.endsWith('.json')).sort())
    await squadLike(join(jaquad, file))
  const scifact = join(sharedDir, 'data/beir-scifact')
  const lines = async (file: string) =>
    (await readFile(join(scifact, file), 'utf8')).split('\n').filter(Boolean)
  for (const line of await lines('corpus.jsonl')) passages.push((JSON.parse(line) as { text: string }).text)
  for (const line of await lines('queries.jsonl')) questions.push((JSON.parse(line) as { text: string }).text)
  return { passages: [...new Set(passages)], questions }
}

/** A seeded generator (the same corpus and queries on every run). */
export function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state / 2 ** 31
  }
}

/** A chunk of real text as the pipeline stores it: its words, distinct character pairs and passage. */
export interface RealChunk extends AnalysedChunk {
  /** Its passage (the parent section it belongs to). */
  passage: number
}

/** What a parent section holds: its text, word counts and length. */
export interface ParentRecord extends ParentTerms {
  text: string
}

/** The real passages cut into chunks and analysed as the pipeline does; each passage is a parent. */
export interface RealTextChunks {
  chunks: RealChunk[]
  parents: ParentRecord[]
}

export function realTextChunks(text: RealText): RealTextChunks {
  const chunks: RealChunk[] = []
  const parents = text.passages.map((passage, index) => {
    const analysed = analysePassage(passage)
    for (const chunk of analysed.chunks) chunks.push({ ...chunk, passage: index })
    return { text: passage, ...parentTerms(analysed.chunks) }
  })
  return { chunks, parents }
}

/** A chunk on its way into the database, with its parent (`passage` tells parents apart). */
export interface ChunkToStore {
  chunk: AnalysedChunk
  passage: number
  parent: ParentRecord
}

export interface StoreChunksOptions {
  count: number
  chunksPerDocument?: number
  /** Each chunk's vector from its words (the schema then needs an embedding space of that size). */
  vectorOf?: (terms: string[]) => number[]
  /** Store the parent sections' text (what an answer prompt reads); search alone does not need it. */
  sectionText?: boolean
  /** Documents dealt in turn to this many collections (`c0`, `c1`, …); 1: all in `default`. */
  collections?: number
  /**
   * Store only the documents dealt to this collection (the others are dealt, counted and skipped):
   * the same collection as among the others, alone in its index.
   */
  onlyCollection?: string
}

/** The collection a bench document goes to, dealt in turn over `collections`. */
export const benchCollection = (document: number, collections: number) =>
  collections > 1 ? `c${document % collections}` : 'default'

/** Inserts in flight at once: the database's work (arrays, indexes) overlaps the next document's JSON. */
const INSERTS_IN_FLIGHT = 3

/**
 * Fills a schema with `count` ready chunks from `source`, in order, over documents of
 * `chunksPerDocument` chunks (the chunks of one passage in one document share a parent section).
 * Returns how many were dealt (fewer when the source ends first; with onlyCollection, more than were stored).
 */
export async function storeChunks(
  pool: Pool,
  source: AsyncIterable<ChunkToStore> | Iterable<ChunkToStore>,
  {
    count,
    chunksPerDocument = 20,
    vectorOf,
    sectionText = false,
    collections = 1,
    onlyCollection,
  }: StoreChunksOptions,
): Promise<number> {
  let made = 0
  let document = 0
  let batch: ChunkToStore[] = []
  const inFlight = new Set<Promise<void>>()
  const flush = async () => {
    if (onlyCollection !== undefined && benchCollection(document, collections) !== onlyCollection) {
      document++
      made += batch.length
      batch = []
      return
    }
    const insert = insertDocument(pool, document++, batch, { vectorOf, sectionText, collections }).finally(
      () => inFlight.delete(insert),
    )
    inFlight.add(insert)
    made += batch.length
    batch = []
    if (inFlight.size >= INSERTS_IN_FLIGHT) await Promise.race(inFlight)
  }
  for await (const item of source) {
    if (made + batch.length >= count) break
    batch.push(item)
    if (batch.length === chunksPerDocument) await flush()
  }
  if (batch.length > 0) await flush()
  await Promise.all(inFlight)
  await pool.query('ANALYZE documents; ANALYZE sections; ANALYZE chunks')
  return made
}

async function insertDocument(
  pool: Pool,
  document: number,
  items: ChunkToStore[],
  {
    vectorOf,
    sectionText,
    collections = 1,
  }: Pick<StoreChunksOptions, 'vectorOf' | 'sectionText' | 'collections'>,
) {
  const passages = [...new Set(items.map((item) => item.passage))]
  const parents = passages.map((passage) => items.find((item) => item.passage === passage)?.parent)
  const id = `00000000-0000-4000-8000-${document.toString(16).padStart(12, '0')}`
  await pool.query(
    `WITH d AS (
       INSERT INTO documents (id, collection, filename, source_type, stored_path, content_hash, size_bytes, status, active_hash)
       VALUES ($1::uuid, $${vectorOf ? 6 : 5}, $2, 'text', '-', 'h', 0, 'ready', 'h') RETURNING id),
     s AS (
       INSERT INTO sections (document_id, content_hash, ordinal, source_id, text, term_tf, term_count)
       SELECT d.id, 'h', p.i - 1, $2, coalesce(p.v ->> 'text', ''), p.v -> 'termTf', (p.v ->> 'termCount')::int
         FROM d CROSS JOIN jsonb_array_elements($3::jsonb) WITH ORDINALITY AS p(v, i)
       RETURNING id, document_id, ordinal)
     INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, terms, term_count,
                         bigrams, bigram_count${vectorOf ? ', embedding, embedding_status' : ''})
     SELECT s.document_id, 'h', s.id, a.i - 1, $2 || ':c' || a.i, a.c ->> 'text', md5($2 || a.i),
            ARRAY(SELECT jsonb_array_elements_text(a.c -> 'words')), jsonb_array_length(a.c -> 'words'),
            ARRAY(SELECT jsonb_array_elements_text(a.c -> 'bigrams')), (a.c ->> 'bigramCount')::int
            ${vectorOf ? ", ($5::json ->> (a.i - 1)::int)::vector, 'done'" : ''}
       FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS a(c, i)
       JOIN s ON s.ordinal = (a.c ->> 'parent')::int`,
    [
      id,
      `doc-${document}.txt`,
      JSON.stringify(parents.map((parent) => (sectionText ? parent : { ...parent, text: undefined }))),
      JSON.stringify(items.map(({ chunk, passage }) => ({ ...chunk, parent: passages.indexOf(passage) }))),
      ...(vectorOf ? [JSON.stringify(items.map(({ chunk }) => toSql(vectorOf(chunk.words))))] : []),
      benchCollection(document, collections),
    ],
  )
}

/**
 * The real chunks, then again and again with light perturbation (about one word in ten of a copy
 * gets a variant), so term statistics keep the shape of real text while copies are not exact
 * duplicates. Without end: take what is needed.
 */
export function* perturbedCopies(base: RealTextChunks, seed = 7): Generator<ChunkToStore> {
  const random = seeded(seed)
  for (let index = 0; ; index++) {
    const original = base.chunks[index % base.chunks.length] as RealChunk
    const copy = Math.floor(index / base.chunks.length)
    const words =
      copy === 0
        ? original.words
        : original.words.map((word) => (random() < 0.1 ? `${word}~${copy % 50}` : word))
    yield {
      chunk: { ...original, words },
      passage: original.passage,
      parent: base.parents[original.passage] as ParentRecord,
    }
  }
}

/** `count` chunks of real text (realTextChunks), replicated with light perturbation past the real ones. */
export async function insertRealTextChunks(
  pool: Pool,
  base: RealTextChunks,
  { seed = 7, ...options }: StoreChunksOptions & { seed?: number },
): Promise<void> {
  await storeChunks(pool, perturbedCopies(base, seed), options)
}
