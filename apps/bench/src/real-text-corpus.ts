import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Pool } from '@rag/db'
import { analyzeText } from '@rag/keyword'
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

/** A chunk of real text as the pipeline stores it: its words, distinct character pairs and passage. */
export interface RealChunk {
  text: string
  words: string[]
  bigrams: string[]
  bigramCount: number
  /** Its passage (the parent section it belongs to). */
  passage: number
}

/** The real passages cut into chunks and analysed as the pipeline does; each passage is a parent. */
export interface RealTextChunks {
  chunks: RealChunk[]
  /** Each passage's text, word counts and length, as a parent section keeps them. */
  parents: { text: string; termTf: Record<string, number>; termCount: number }[]
}

export function realTextChunks(text: RealText): RealTextChunks {
  const chunks: RealChunk[] = []
  const parents = text.passages.map((passage, index) => {
    for (const piece of chunkText(passage)) {
      const { words, bigrams } = analyzeText(piece)
      chunks.push({
        text: piece,
        words,
        bigrams: [...new Set(bigrams)].sort(),
        bigramCount: bigrams.length,
        passage: index,
      })
    }
    const { words } = analyzeText(passage)
    const termTf: Record<string, number> = {}
    for (const word of words) termTf[word] = (termTf[word] ?? 0) + 1
    return { text: passage, termTf, termCount: words.length }
  })
  return { chunks, parents }
}

/**
 * Fills a schema with `count` ready chunks of real text (`base`: realTextChunks) over documents
 * of `chunksPerDocument` chunks, each passage a parent section. Past the real passages the text is
 * replicated with light perturbation (about one word in ten of a copy gets a variant), so term
 * statistics keep the shape of real text while copies are not exact duplicates.
 */
export async function insertRealTextChunks(
  pool: Pool,
  base: RealTextChunks,
  {
    count,
    chunksPerDocument = 20,
    seed = 7,
    vectorOf,
    sectionText = false,
  }: {
    count: number
    chunksPerDocument?: number
    seed?: number
    /** Each chunk's vector from its words (the schema then needs an embedding space of that size). */
    vectorOf?: (terms: string[]) => number[]
    /** Store the parent sections' text (what an answer prompt reads); search alone does not need it. */
    sectionText?: boolean
  },
): Promise<void> {
  const random = seeded(seed)
  let made = 0
  for (let document = 0; made < count; document++) {
    const size = Math.min(chunksPerDocument, count - made)
    const chunks = Array.from({ length: size }, (_, i) => {
      const index = made + i
      const original = base.chunks[index % base.chunks.length] as RealChunk
      const copy = Math.floor(index / base.chunks.length)
      const words =
        copy === 0
          ? original.words
          : original.words.map((word) => (random() < 0.1 ? `${word}~${copy % 50}` : word))
      return { ...original, words }
    })
    const passages = [...new Set(chunks.map((chunk) => chunk.passage))]
    const id = `00000000-0000-4000-8000-${document.toString(16).padStart(12, '0')}`
    await pool.query(
      `WITH d AS (
         INSERT INTO documents (id, filename, source_type, stored_path, content_hash, size_bytes, status, active_hash)
         VALUES ($1::uuid, $2, 'text', '-', 'h', 0, 'ready', 'h') RETURNING id),
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
        JSON.stringify(
          passages.map((passage) => {
            const parent = base.parents[passage]
            return sectionText ? parent : { ...parent, text: undefined }
          }),
        ),
        JSON.stringify(chunks.map((chunk) => ({ ...chunk, parent: passages.indexOf(chunk.passage) }))),
        ...(vectorOf ? [JSON.stringify(chunks.map((chunk) => toSql(vectorOf(chunk.words))))] : []),
      ],
    )
    made += size
  }
  await pool.query('ANALYZE documents; ANALYZE sections; ANALYZE chunks')
}
