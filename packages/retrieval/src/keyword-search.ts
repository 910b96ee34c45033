import { retrievalDefaults } from '@rag/config'
import { type Pool, type PoolClient, withTransaction } from '@rag/db'
import {
  analyzeQuery,
  bigramCounts,
  inverseDocumentFrequency,
  namedTerms,
  namesHeld,
  type QueryTerms,
  rareNames,
  type SynonymTable,
  scorePassages,
} from '@rag/keyword'
import { keywordStatistics, statisticsScope } from './keyword-statistics.ts'
import type { RankedChunk, SearchFilters } from './ranked-chunk.ts'

export interface KeywordSearchOptions extends SearchFilters {
  limit: number
  k1?: number
  b?: number
  /** About how many chunks are scored: the rarest query terms whose chunks fit this budget. */
  maxCandidates?: number
  /** Synonyms the question's words are also searched as (at a lower weight); none when null. */
  synonyms?: SynonymTable | null
}

export interface TermStat {
  term: string
  df: number
}

/**
 * The rarest terms, as many as fit the candidate budget together: every chunk holding one of them
 * is scored. A chunk with none of them holds only frequent terms and rarely outranks one that
 * matches a rare term (the idea behind MaxScore).
 */
export function candidateTerms(stats: TermStat[], maxCandidates: number) {
  const byRarity = [...stats].sort((x, y) => x.df - y.df)
  const rare: string[] = []
  let budget = maxCandidates
  for (const stat of byRarity) {
    if (rare.length > 0 && stat.df > budget) break
    rare.push(stat.term)
    budget -= stat.df
  }
  return { byRarity, rare }
}

const defaults = retrievalDefaults()
const DEFAULT_BM25 = { k1: defaults.bm25K1, b: defaults.bm25B }

/**
 * The best of the first stage (BM25 of the chunks' words) scored as passages; any further ones
 * asked for follow in BM25 order. 30 measured as 50 and as every candidate on JaQuAD, SQuAD and
 * SciFact (pnpm bench relevance), for a fifth of the reads.
 */
export const RESCORED_CANDIDATES = 30

interface FirstStageRow {
  chunkId: string
  score: number
  /** Null past the rescored ones. */
  words: string[] | null
  text: string
  bigramCount: number
  parentTf: number[] | null
  parentWords: number
}

/**
 * Keyword search in two stages. First, Okapi BM25 over the chunks' words, with document
 * frequencies and corpus size kept by triggers per collection (term_stats, corpus_stats) instead of
 * counted per query, summed over the collections searched (statisticsScope); candidates are the chunks holding any of the query's rarest words (see below), every query
 * word still counts in the score. Then the best RESCORED_CANDIDATES are scored as passages
 * (@rag/keyword scorePassages: character pairs, the parent section, the question's words together).
 * The statistics are read first so that the candidate terms reach the planner as a value: as a
 * subquery result they hid from it, and it chose a sequential scan over the GIN index (100 ms at
 * 10k chunks).
 */
export async function keywordSearch(
  pool: Pool,
  query: string,
  options: KeywordSearchOptions,
): Promise<RankedChunk[]> {
  const terms = analyzeQuery(query, options.synonyms ?? null)
  if (terms.words.length === 0) return []
  const { limit, maxCandidates = 2000, collection, within } = options
  const bm25 = { k1: options.k1 ?? DEFAULT_BM25.k1, b: options.b ?? DEFAULT_BM25.b }
  const alternateShare = alternateWordShares(terms)
  const rows = await keywordStatistics(
    pool,
    [...terms.words, ...alternateShare.keys(), ...terms.bigrams.map((bigram) => ` ${bigram}`)],
    statisticsScope(options),
  )
  const stats = rows.filter((row) => !row.term.startsWith(' '))
  const first = stats[0]
  if (!first) return []
  const { n, avgdl } = first
  const { byRarity, rare } = candidateTerms(stats, maxCandidates)
  // A synonym's words weigh in the first stage at its weight, shared among them.
  const idf = stats.map((stat) => inverseDocumentFrequency(stat.df, n) * (alternateShare.get(stat.term) ?? 1))
  const wanted = Math.max(limit, RESCORED_CANDIDATES)
  const score = (match: '&&' | '@>', candidateTerms: string[], candidateLimit: number) =>
    withKeywordPlan(pool, (client) =>
      client.query<FirstStageRow>(keywordScoreSql(match), [
        stats.map((stat) => stat.term),
        idf,
        candidateTerms,
        collection ?? null,
        candidateLimit,
        bm25.k1,
        bm25.b,
        avgdl,
        wanted,
        terms.words,
        RESCORED_CANDIDATES,
        terms.bigrams.length > 0,
        hashedLookup(stats.map((stat) => stat.term)),
        within ?? null,
        statisticsScope(options),
      ]),
    )
  // Only frequent terms: even the rarest alone exceeds the budget. Chunks holding the two rarest
  // together are few and are where BM25's best scores are; the union is the fallback.
  const [rarest, second] = byRarity
  let candidates: FirstStageRow[] | undefined
  if (rarest && second && rarest.df > maxCandidates) {
    // At most the budget of them (pnpm bench: p95 51 → 28 ms at 100k chunks, top-10 agreement
    // with exhaustive scoring 96.2 → 95.0%; twice the budget only added latency).
    const both = await score('@>', [rarest.term, second.term], Math.max(limit, maxCandidates))
    if (both.rows.length >= limit) candidates = both.rows
  }
  candidates ??= (await score('&&', rare, maxCandidates * 2)).rows
  const rescored = candidates.filter((row) => row.words !== null)
  const ranked = scorePassages(
    terms,
    {
      chunks: n,
      averageWords: avgdl,
      averageBigrams: first.avgBigrams,
      averageParentWords: first.avgParent,
      wordDf: new Map(stats.map((row) => [row.term, row.df])),
      // Pairs are counted under their term with a leading space (migration 0008).
      bigramDf: new Map(
        rows.filter((row) => row.term.startsWith(' ')).map((row) => [row.term.slice(1), row.df]),
      ),
    },
    rescored.map((row) => ({
      id: row.chunkId,
      words: row.words ?? [],
      bigramTf: bigramCounts(row.text, terms.bigrams),
      bigramCount: row.bigramCount,
      parentTf: row.parentTf ?? [],
      parentWords: row.parentWords,
    })),
    bm25,
  ).map(({ id, score }) => ({ chunkId: id, score }))
  // The question's rare names each passage holds, for search to put those holding them first.
  const df = new Map(stats.map((stat) => [stat.term, stat.df]))
  const names = rareNames(namedTerms(query), (term) => df.get(term) ?? 0, n)
  if (names.length > 0) {
    const wordsOf = new Map(rescored.map((row) => [row.chunkId, new Set(row.words)]))
    for (const item of ranked) {
      const held = namesHeld(names, wordsOf.get(item.chunkId) ?? new Set())
      if (held > 0) Object.assign(item, { namesHeld: held })
    }
  }
  // The rest in BM25 order, scaled under the last passage score so scores still fall with rank.
  const tail = candidates.filter((row) => row.words === null)
  const floor = ranked.at(-1)?.score ?? 0
  const top = tail[0]?.score ?? 1
  return [
    ...ranked,
    ...tail.map((row) => ({ chunkId: row.chunkId, score: (floor * row.score) / (top * 1.001) })),
  ].slice(0, limit)
}

/** Each word only a synonym brings (not typed), with the share of its IDF it counts for. */
function alternateWordShares(terms: QueryTerms): Map<string, number> {
  const typed = new Set(terms.words)
  const shares = new Map<string, number>()
  for (const alternate of terms.alternates) {
    for (const word of alternate.words) {
      if (typed.has(word)) continue
      shares.set(word, Math.max(shares.get(word) ?? 0, alternate.weight / alternate.words.length))
    }
  }
  return shares
}

/**
 * The terms padded with empty strings (never a term) to 9: Postgres looks a value up in a
 * constant `= ANY(array)` through a hash table only from 9 elements (PG 14+), and compares it with
 * each element below that. The lookup runs once per word of every candidate (~150k at 1M chunks of
 * real text): padded, pnpm bench search p95 42 → 33 ms there.
 */
export function hashedLookup(terms: string[]): string[] {
  return [...terms, ...Array.from({ length: Math.max(0, 9 - terms.length) }, () => '')]
}

/**
 * Runs `query` with the planner kept off sequential scans of chunks: it prices `terms && …` per row
 * as nearly free and, once the candidates are a sixth of a small corpus, scanned every row instead
 * of the GIN index — evaluating the overlap on all of them (pnpm bench ask, 10k chunks of real
 * text: keyword p95 83 ms; through the index 32 ms). The scoring query and its plan test share it.
 */
export function withKeywordPlan<T>(pool: Pool, query: (client: PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, async (client) => {
    await client.query('SET LOCAL enable_seqscan = off')
    return query(client)
  })
}

/**
 * The first stage ($1 terms, $2 idf, $3 candidate terms, $4 collection, $5 candidate limit, $6
 * k1, $7 b, $8 avgdl, $9 limit, $10 the query's words for the parents' counts, $11 how many are
 * scored as passages, $12 whether their text is read, $13 the terms as hashedLookup pads them, $14
 * the caller's granted collections or null, $15 the collections searched or null for all).
 * The candidates come from the GIN index on (collection, terms) first, in a MATERIALIZED step:
 * only the searched collections' postings are read, so what another collection holds neither
 * takes a share of the candidate budget nor the time to skip it (migration 0030). Only then they
 * meet documents: joined freely, the planner walked every document through chunks_document_idx and
 * tested `terms` row by row once there were many documents (121 ms p50 on 152 real documents,
 * against 20 ms through GIN). And only their own documents, looked up by id: joined to the table,
 * the planner hashed every document for each query (50,000 at 1M chunks: 15 of a 57 ms query).
 */
export const keywordScoreSql = (
  match: '&&' | '@>',
) => `WITH q AS (SELECT * FROM unnest($1::text[], $2::float8[]) AS q(term, idf)),
     matched AS MATERIALIZED (
       SELECT ch.id, ch.document_id, ch.content_hash, ch.terms, ch.term_count FROM chunks ch
        WHERE ch.terms ${match} $3::text[]
          AND ($15::text[] IS NULL OR ch.collection = ANY($15::text[]))
        -- Room for chunks of replaced versions, dropped just below.
        LIMIT $5 * 4
     ),
     live AS (
       SELECT d.id, d.active_hash FROM documents d
        WHERE d.id = ANY(ARRAY(SELECT DISTINCT m.document_id FROM matched m))
          AND ($4::text IS NULL OR d.collection = $4)
          AND ($14::text[] IS NULL OR d.collection = ANY($14::text[]))
     ),
     candidates AS (
       SELECT m.id, m.terms, m.term_count FROM matched m
         JOIN live d ON d.id = m.document_id AND d.active_hash = m.content_hash
        LIMIT $5
     ),
     -- Each candidate's terms read once, unnested as a stream (a Function Scan per candidate
     -- materialised every array), and looked up in the query's as a hashed set ($13, see
     -- hashedLookup): asking each query term against each candidate's array cost |query| passes
     -- over it (pnpm bench ask, 10k chunks of real text: scoring p95 52 → 27 ms, same top 10).
     tf AS (
       SELECT t.id, t.term_count, t.term, count(*)::float8 AS n
         FROM (SELECT cand.id, cand.term_count, unnest(cand.terms) AS term FROM candidates cand) t
        WHERE t.term = ANY($13::text[])
        GROUP BY t.id, t.term_count, t.term
     ),
     scored AS (
       SELECT tf.id, row_number() OVER (ORDER BY sum(q.idf * tf.n * ($6::float8 + 1)
                  / (tf.n + $6::float8 * (1 - $7::float8 + $7::float8 * tf.term_count / $8::float8))) DESC, tf.id) AS rn,
              sum(q.idf * tf.n * ($6::float8 + 1)
                  / (tf.n + $6::float8 * (1 - $7::float8 + $7::float8 * tf.term_count / $8::float8)))::float8 AS score
         FROM tf JOIN q ON q.term = tf.term
        GROUP BY tf.id
        ORDER BY score DESC, tf.id
        LIMIT $9
     )
     -- What passage scoring reads of the best $11: the chunk's words, its text when the query has
     -- character pairs to count ($12), its parent's counts of the query's words ($10, in order).
     SELECT sc.id::text AS "chunkId", sc.score,
            CASE WHEN sc.rn <= $11 THEN ch.terms END AS words,
            CASE WHEN sc.rn <= $11 AND $12::boolean THEN concat_ws(E'\n', ch.context, ch.text) ELSE '' END AS text,
            ch.bigram_count AS "bigramCount",
            CASE WHEN sc.rn <= $11 THEN ARRAY(SELECT coalesce((s.term_tf ->> w.word)::int, 0)
                    FROM unnest($10::text[]) WITH ORDINALITY AS w(word, i) ORDER BY w.i) END AS "parentTf",
            s.term_count AS "parentWords"
       FROM scored sc JOIN chunks ch ON ch.id = sc.id JOIN sections s ON s.id = ch.section_id
      ORDER BY sc.score DESC, sc.id`
