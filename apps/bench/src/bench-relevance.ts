import { join } from 'node:path'
import { type BenchConfig, retrievalDefaults } from '@rag/config'
import { loadDataset } from '@rag/evaluation'
import {
  analyzeQuery,
  type Bm25Index,
  bigramCounts,
  DEFAULT_RELEVANCE,
  namedTerms,
  namesHeld,
  type PassageEvidence,
  type RelevanceWeights,
  rareNames,
  scorePassages,
  tokenize,
} from '@rag/keyword'
import { RESCORED_CANDIDATES } from '@rag/retrieval'
import { indexTerms, type RelevanceCorpus, relevanceCorpus } from './relevance-corpus.ts'

/** Candidates the database's first stage hands to passage scoring, as keyword search does. */
const FIRST_STAGE = RESCORED_CANDIDATES

const DATASETS = [
  { name: 'JaQuAD dev', path: 'data/jaquad-dev' },
  { name: 'SQuAD dev, first 2,000', path: 'data/squad-v1.1-dev/dev-v1.1.json', limit: 2000 },
  { name: 'SciFact test', path: 'data/beir-scifact' },
]

const { bm25K1, bm25B } = retrievalDefaults()
const BM25 = { k1: bm25K1, b: bm25B }

const PARTS: (keyof RelevanceWeights)[] = [
  'bigrams',
  'parent',
  'proximity',
  'coverage',
  'phrase',
  'answerKind',
]

interface Metrics {
  mrr: number
  hit1: number
  ndcg: number
}

/** Documents ranked by their best chunk, scored against graded gold: MRR@10, hit@1, nDCG@10. */
function measure(corpus: RelevanceCorpus, rank: (query: string, index: number) => string[]): Metrics {
  const total = { mrr: 0, hit1: 0, ndcg: 0 }
  corpus.questions.forEach((question, index) => {
    const documents = rank(question.query, index).slice(0, 10)
    const first = documents.findIndex((document) => (question.gold[document] ?? 0) > 0)
    if (first >= 0) total.mrr += 1 / (first + 1)
    if (first === 0) total.hit1 += 1
    const dcg = documents.reduce(
      (sum, document, i) => sum + (question.gold[document] ?? 0) / Math.log2(i + 2),
      0,
    )
    const ideal = Object.values(question.gold)
      .sort((x, y) => y - x)
      .slice(0, 10)
      .reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0)
    total.ndcg += ideal > 0 ? dcg / ideal : 0
  })
  const n = Math.max(1, corpus.questions.length)
  return { mrr: total.mrr / n, hit1: total.hit1 / n, ndcg: total.ndcg / n }
}

function documentsOf(corpus: RelevanceCorpus, ranked: { id: string | number }[]): string[] {
  const seen = new Set<string>()
  for (const { id } of ranked) seen.add(corpus.chunkDocument[Number(id)] ?? '')
  return [...seen]
}

const counts = (terms: string[]) => {
  const map = new Map<string, number>()
  for (const term of terms) map.set(term, (map.get(term) ?? 0) + 1)
  return map
}

function passageRanker(
  corpus: RelevanceCorpus,
  words: Bm25Index,
  bigrams: Bm25Index,
  weights: RelevanceWeights,
  { namesFirst = true } = {},
) {
  const average = (lists: string[][]) =>
    lists.reduce((sum, terms) => sum + terms.length, 0) / Math.max(1, lists.length)
  const averageBigrams = average(corpus.chunkBigrams)
  const averageParentWords = average(corpus.parentWords)
  return (query: string) => documentsOf(corpus, rank(query))
  function rank(query: string) {
    const terms = analyzeQuery(query)
    const candidates = words.search(terms.words, FIRST_STAGE)
    const passages: PassageEvidence[] = candidates.map(({ doc }) => {
      const parent = corpus.parentWords[corpus.chunkParent[doc] ?? 0] ?? []
      const parentCounts = counts(parent)
      return {
        id: String(doc),
        words: corpus.chunkWords[doc] ?? [],
        bigramTf: bigramCounts(corpus.chunkText[doc] ?? '', terms.bigrams),
        bigramCount: corpus.chunkBigrams[doc]?.length ?? 0,
        parentTf: terms.words.map((word) => parentCounts.get(word) ?? 0),
        parentWords: parent.length,
      }
    })
    const stats = {
      chunks: words.size,
      averageWords: words.averageLength,
      averageBigrams,
      averageParentWords,
      wordDf: new Map(terms.words.map((word) => [word, words.documentFrequency(word)])),
      bigramDf: new Map(terms.bigrams.map((bigram) => [bigram, bigrams.documentFrequency(bigram)])),
    }
    const ranked = scorePassages(terms, stats, passages, BM25, weights)
    if (!namesFirst) return ranked
    // As search does (namedFirst): passages holding more of the question's rare names first.
    const names = rareNames(namedTerms(query), (term) => words.documentFrequency(term), words.size)
    const held = (id: string) => namesHeld(names, new Set(corpus.chunkWords[Number(id)] ?? []))
    return ranked
      .map((item, index) => ({ item, index, held: held(item.id) }))
      .sort((a, b) => b.held - a.held || a.index - b.index)
      .map(({ item }) => item)
  }
}

/**
 * `pnpm bench relevance [PATH…]`: what each part of keyword scoring adds, on the shared
 * evaluation sets (or the SQuAD/BEIR/questions datasets given), in memory and in seconds: the
 * documents cut as the pipeline cuts them, the same analyser and the same scoring function as
 * keyword search, the same first stage (BM25 of the words, its best RESCORED_CANDIDATES chunks). `pnpm eval` measures
 * the whole pipeline; this shows which choice earns what.
 */
export async function benchRelevance(config: BenchConfig, args: string[] = []): Promise<void> {
  const chosen = args.length > 0 ? args.map((path) => ({ name: path, path, limit: undefined })) : DATASETS
  for (const { name, path, limit } of chosen) {
    const started = performance.now()
    const dataset = await loadDataset(args.length > 0 ? path : join(config.sharedDir, path))
    const corpus = await relevanceCorpus(dataset, limit)
    const words = indexTerms(corpus.chunkWords, BM25)
    const bigrams = indexTerms(
      corpus.chunkBigrams.map((pairs) => [...new Set(pairs)]),
      BM25,
    )
    const icu = indexTerms(corpus.chunkIcu)
    console.log(
      `\n${name}: ${corpus.questions.length} questions, ${dataset.documents.length} documents, ${corpus.chunkWords.length} chunks (prepared in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    )
    console.log('scoring                                   MRR@10  hit@1   nDCG@10')
    const row = (label: string, metrics: Metrics) =>
      console.log(
        `${label.padEnd(40)}  ${metrics.mrr.toFixed(4)}  ${metrics.hit1.toFixed(4)}  ${metrics.ndcg.toFixed(4)}`,
      )
    row(
      'BM25, ICU words (k1 1.2, b 0.75)',
      measure(corpus, (query) =>
        documentsOf(
          corpus,
          icu.search(tokenize(query, 'icu'), 100).map((hit) => ({ id: hit.doc })),
        ),
      ),
    )
    row(
      `BM25, words with base forms (k1 ${BM25.k1}, b ${BM25.b})`,
      measure(corpus, (query) =>
        documentsOf(
          corpus,
          words.search(analyzeQuery(query).words, 100).map((hit) => ({ id: hit.doc })),
        ),
      ),
    )
    row('all parts (the default)', measure(corpus, passageRanker(corpus, words, bigrams, DEFAULT_RELEVANCE)))
    row(
      '  without rare names first',
      measure(corpus, passageRanker(corpus, words, bigrams, DEFAULT_RELEVANCE, { namesFirst: false })),
    )
    for (const part of PARTS) {
      const weights = { ...DEFAULT_RELEVANCE, [part]: 0 }
      row(`  without ${part}`, measure(corpus, passageRanker(corpus, words, bigrams, weights)))
    }
  }
}
