import { createVectorIndexSql, type Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import { tokenize } from '@rag/keyword'

export const LEXICAL_DIM = 384
/** Dimensions each term's own part adds to (with a sign): two terms rarely share their pattern. */
const SPREAD = 12
/** The shared subspace terms mostly lie in, and the share of a vector's length outside it. */
const TOPICS = 48
const OWN_SHARE = 0.5

/** FNV-1a: a term's stable seed (its variant `term~3` is a different word with another seed). */
function hash(term: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** xorshift32 from a seed: a term's reproducible random numbers. */
function numbers(seed: number) {
  let state = seed || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return state >>> 0
  }
}

/** A standard normal draw (Box–Muller) from two uniform ones. */
const gaussian = (next: () => number) =>
  Math.sqrt(-2 * Math.log((next() + 1) / 2 ** 32)) * Math.cos((2 * Math.PI * next()) / 2 ** 32)

/**
 * The benchmark's stand-in for an embedding model, for corpora too large to embed here. A text's
 * vector is the TF-IDF weighted sum of its terms' vectors; a term's vector is mostly a point in a
 * shared 48-dimensional "topic" subspace (embeddings of real models concentrate in a few dozen
 * directions, which is what makes HNSW work on them) plus a sparse signed part of its own (feature
 * hashing), so texts that share informative words lie close. A question is embedded from its own
 * words: its neighbours are passages about the same thing, never a near-copy of a stored vector.
 * A perturbed copy of a word (`term~3`) keeps the word's topic part and gets its own sparse part.
 * Its cost is not a model's (`pnpm bench models` measures that).
 */
export function lexicalVectors(documentFrequency: Map<string, number>, documents: number) {
  const next = numbers(0x5eed)
  const basis = Array.from({ length: LEXICAL_DIM * TOPICS }, () => gaussian(next))
  const topics = new Map<string, Float64Array>()
  const topicOf = (word: string) => {
    let z = topics.get(word)
    if (!z) {
      const draw = numbers(hash(word))
      z = Float64Array.from({ length: TOPICS }, () => gaussian(draw))
      topics.set(word, z)
    }
    return z
  }
  const vectorOf = (terms: string[]): number[] => {
    const counts = new Map<string, number>()
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
    const topic = new Float64Array(TOPICS)
    const own = new Float64Array(LEXICAL_DIM)
    for (const [term, count] of counts) {
      const word = term.split('~')[0] ?? term
      const weight =
        (1 + Math.log(count)) * Math.log(1 + documents / (1 + (documentFrequency.get(word) ?? 0)))
      const z = topicOf(word)
      for (let i = 0; i < TOPICS; i++) topic[i] = (topic[i] ?? 0) + weight * (z[i] ?? 0)
      const draw = numbers(hash(term))
      for (let i = 0; i < SPREAD; i++) {
        const bits = draw()
        own[bits % LEXICAL_DIM] = (own[bits % LEXICAL_DIM] ?? 0) + (bits & 0x80000000 ? weight : -weight)
      }
    }
    const vector = new Float64Array(LEXICAL_DIM)
    for (let d = 0; d < LEXICAL_DIM; d++) {
      let sum = 0
      for (let i = 0; i < TOPICS; i++) sum += (basis[d * TOPICS + i] ?? 0) * (topic[i] ?? 0)
      vector[d] = sum
    }
    // The sparse part carries about a third of the length, the topic part the rest.
    const scale = (OWN_SHARE * Math.hypot(...vector)) / (Math.hypot(...own) || 1)
    for (let d = 0; d < LEXICAL_DIM; d++) vector[d] = (vector[d] ?? 0) + scale * (own[d] ?? 0)
    const norm = Math.hypot(...vector) || 1
    return Array.from(vector, (value) => value / norm)
  }
  const embedder: Embedder = {
    model: 'bench/lexical-projection',
    dim: LEXICAL_DIM,
    embedPassages: async (texts) => texts.map((text) => vectorOf(tokenize(text))),
    embedQuery: async (text) => vectorOf(tokenize(text)),
  }
  return { vectorOf, embedder }
}

/** Document frequencies of the real chunks' terms (before replication): what the weights use. */
export function documentFrequencies(chunks: string[][]): Map<string, number> {
  const df = new Map<string, number>()
  for (const terms of chunks) for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1)
  return df
}

/**
 * Builds the HNSW index once, after a bulk load with the index dropped (as after a bulk import;
 * building it row by row would take far longer), with room to build the graph in memory (PGlite,
 * a 32-bit WebAssembly process, gets less).
 */
export async function buildVectorIndex(
  pool: Pool,
  memory = '4GB',
  type: 'halfvec' | 'vector' = 'halfvec',
): Promise<void> {
  // One connection: a pool's SET would reach whichever connection it happened to take.
  const client = await pool.connect()
  try {
    await client.query(`SET maintenance_work_mem = '${memory}'`)
    await client.query(createVectorIndexSql(type))
    await client.query('ANALYZE chunks')
  } finally {
    client.release()
  }
}
