import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Pool } from '@rag/db'
import { tokenize } from '@rag/keyword'
import { toSql } from 'pgvector'

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

/** About 500 characters per chunk, cut at a space or a Japanese full stop where one is near. */
export function chunkText(text: string, size = 500): string[] {
  const chunks: string[] = []
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + size)
    if (end < text.length) {
      const cut = Math.max(text.lastIndexOf(' ', end), text.lastIndexOf('。', end) + 1)
      if (cut > start + size / 2) end = cut
    }
    chunks.push(text.slice(start, end).trim())
    start = end
  }
  return chunks.filter(Boolean)
}

/** The real passages cut into chunks and tokenized as the pipeline does: each chunk's terms. */
export function realTextChunkTerms(text: RealText): string[][] {
  return text.passages.flatMap((passage) => chunkText(passage)).map((chunk) => tokenize(chunk))
}

/**
 * Fills a schema with `count` ready chunks of real text (`base`: realTextChunkTerms) over documents
 * of `chunksPerDocument` chunks. Past the real passages the text is replicated with light
 * perturbation (about one term in ten of a copy gets a variant), so term statistics keep the shape
 * of real text while copies are not exact duplicates.
 */
export async function insertRealTextChunks(
  pool: Pool,
  base: string[][],
  {
    count,
    chunksPerDocument = 20,
    seed = 7,
    vectorOf,
  }: {
    count: number
    chunksPerDocument?: number
    seed?: number
    /** Each chunk's vector from its terms (the schema then needs an embedding space of that size). */
    vectorOf?: (terms: string[]) => number[]
  },
): Promise<void> {
  const random = seeded(seed)
  let made = 0
  for (let document = 0; made < count; document++) {
    const size = Math.min(chunksPerDocument, count - made)
    const terms = Array.from({ length: size }, (_, i) => {
      const index = made + i
      const original = base[index % base.length] ?? []
      const copy = Math.floor(index / base.length)
      return copy === 0 ? original : original.map((term) => (random() < 0.1 ? `${term}~${copy % 50}` : term))
    })
    const id = `00000000-0000-4000-8000-${document.toString(16).padStart(12, '0')}`
    await pool.query(
      `WITH d AS (
         INSERT INTO documents (id, filename, source_type, stored_path, content_hash, size_bytes, status, active_hash)
         VALUES ($1::uuid, $2, 'text', '-', 'h', 0, 'ready', 'h') RETURNING id),
       s AS (
         INSERT INTO sections (document_id, content_hash, ordinal, source_id, text)
         SELECT id, 'h', 0, $2, '' FROM d RETURNING id, document_id)
       INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, terms, term_count
                           ${vectorOf ? ', embedding, embedding_status' : ''})
       SELECT s.document_id, 'h', s.id, a.i - 1, $2 || ':c' || a.i, '', md5($2 || a.i),
              ARRAY(SELECT json_array_elements_text(a.t)), json_array_length(a.t)
              ${vectorOf ? ", ($4::json ->> (a.i - 1)::int)::vector, 'done'" : ''}
         FROM s CROSS JOIN json_array_elements($3::json) WITH ORDINALITY AS a(t, i)`,
      [
        id,
        `doc-${document}.txt`,
        JSON.stringify(terms),
        ...(vectorOf ? [JSON.stringify(terms.map((chunk) => toSql(vectorOf(chunk))))] : []),
      ],
    )
    made += size
  }
  await pool.query('ANALYZE documents; ANALYZE chunks')
}
