import type { PassageMatches } from '@rag/keyword'
import type { JobHandler, retrieveJob } from '@rag/queue'
import {
  judgePassages,
  onePerParent,
  rankingSettings,
  reciprocalRankFusion,
  type SearchHit,
  search,
} from '@rag/retrieval'
import { judgeAnswerability } from '../answerability.ts'
import { calibrationFor } from '../calibration/calibration-store.ts'
import { followUpQuery } from '../conversations/follow-up-query.ts'
import {
  isFinished,
  type QuestionRecord,
  type QuestionSource,
  readQuestion,
  type SourceWhy,
} from '../question-store.ts'
import { foundByMeaning, refuses } from '../refusal-decision.ts'
import { concludeRetrieval } from './conclude-retrieval.ts'
import type { QuestionContext } from './question-context.ts'
import { advance, advanceAndHandOn, elapsedMs } from './question-progress.ts'

/** RAG-Fusion fuses the phrasings with plain RRF at this k and passes this many passages on. */
const FUSION_RRF_K = 60
const FUSION_KEEP = 8

/** How many passages come out of retrieval: the reranker's candidates, or the final sources. */
function candidateCount(question: QuestionRecord, searchK: number, fused: boolean): number {
  const { topK, rerank } = question.options
  if (fused) return Math.max(topK, FUSION_KEEP)
  return rerank ? Math.max(topK, searchK) : topK
}

/** Each phrasing's ranked hits fused into one list, one passage per parent section. */
function fuseHits(lists: SearchHit[][], limit: number): SearchHit[] {
  const byChunk = new Map(lists.flat().map((hit) => [hit.chunkId, hit]))
  const fused = reciprocalRankFusion(
    lists.map((hits) => ({
      items: hits.map((hit) => ({ chunkId: hit.chunkId, score: hit.score })),
      weight: 1,
    })),
    FUSION_RRF_K,
  )
  const hits = fused.flatMap((item, index) => {
    const hit = byChunk.get(item.chunkId)
    return hit
      ? [{ ...hit, rank: index + 1, score: item.score, ranks: { ...hit.ranks, fused: index + 1 } }]
      : []
  })
  return onePerParent(hits, limit)
}

/** What a reader is told of why a passage was found. */
function whyFound(hit: SearchHit, matches: PassageMatches | undefined): SourceWhy {
  return {
    words: matches?.words ?? [],
    synonyms: matches?.synonyms ?? [],
    ...(hit.ranks.keyword !== undefined ? { keywordRank: hit.ranks.keyword } : {}),
    ...(hit.ranks.vector !== undefined ? { vectorRank: hit.ranks.vector } : {}),
    ...(hit.ranks.fused !== undefined ? { fusedRank: hit.ranks.fused } : {}),
  }
}

/**
 * question.retrieve: search with the question's mode (every RAG-Fusion phrasing, fused, when the
 * LLM wrote them), score each passage's evidence, then rerank or conclude. A follow-up no LLM
 * made stand alone is made to by rule here first.
 */
export function retrieveStage(deps: QuestionContext): JobHandler<typeof retrieveJob.payload> {
  return async ({ questionId }) => {
    const question = await readQuestion(deps.pool, questionId)
    // Expired or already answered (a retry after the work was done): nothing to do.
    if (!question || isFinished(question.status)) return 'skipped'
    const started = performance.now()
    if (question.history.length > 0 && question.searchQuery === null) {
      question.searchQuery = followUpQuery(question.question, question.history)
      await advance(deps, questionId, 'retrieving', { searchQuery: question.searchQuery })
    } else await advance(deps, questionId, 'retrieving')

    const { options } = question
    const fused = options.fusion
    const limit = candidateCount(question, deps.retrieval.searchK, fused)
    // Whether the passages answer is judged against the others found with them (a neighbouring
    // paragraph covering the same words is a warning): at least SEARCH_K are looked at.
    const judged = Math.max(limit, deps.retrieval.searchK)
    const embedder = await deps.getEmbedder()
    // The search reads only: on the replica once it has replayed what the primary had committed
    // now (a document made ready before this question is found); the question itself stays on the primary.
    const reads = deps.reads ? (await deps.reads.choose()).pool : deps.pool
    const queries = [question.searchQuery ?? question.question, ...(fused ? (question.queries ?? []) : [])]
    const synonyms = await deps.synonyms.forSearch(options)
    const results = await Promise.all(
      queries.map((query) =>
        search(
          { pool: reads, embedder, synonyms },
          {
            query,
            mode: options.mode,
            limit: queries.length > 1 ? Math.max(limit, deps.retrieval.searchK) : limit,
            keep: judged,
            ...rankingSettings(deps.retrieval),
            collection: options.collection,
            within: options.within ?? null,
            parents: options.parents,
          },
        ),
      ),
    )
    const hits =
      results.length > 1
        ? fuseHits(
            results.map((result) => result.hits),
            judged,
          )
        : (results[0]?.hits ?? [])
    // Evidence is judged on what was searched: a follow-up's own words may name nothing.
    const searched = question.searchQuery ?? question.question
    const judgement = await judgePassages(
      reads,
      searched,
      hits.map((hit) => hit.chunkId),
      options,
      synonyms,
      // Judged over SEARCH_K passages whatever topK asked for: the evaluation (topK 20) sees the
      // judgement a person's question (topK 3) gets.
      deps.retrieval.searchK,
      limit,
    )
    const coverage = judgement.evidence
    const sources: QuestionSource[] = hits.slice(0, limit).map((hit) => ({
      rank: hit.rank,
      sourceId: hit.sourceId,
      documentId: hit.documentId,
      title: hit.title,
      collection: hit.collection,
      score: coverage.get(hit.chunkId) ?? 0,
      retrievalScore: hit.score,
      text: hit.text,
      parentText: hit.parentText,
      heading: hit.heading,
      chunkId: hit.chunkId,
      foundBy: hit.foundBy,
      ...(hit.regions.length > 0 ? { regions: hit.regions } : {}),
      ...(hit.lines ? { lines: hit.lines } : {}),
      why: whyFound(hit, judgement.matches.get(hit.chunkId)),
    }))
    const words = judgeAnswerability(
      judgement.signals,
      await calibrationFor(reads, options),
      deps.retrieval.refusalThreshold,
    )
    const patch = {
      answerability: words,
      degraded: [...new Set(results.flatMap((result) => result.degraded))],
      // searchMs (the phrasings are searched at once): what the queue's overhead is measured without.
      timings: {
        retrieveMs: elapsedMs(started),
        searchMs: Math.max(0, ...results.map((result) => result.timings.totalMs)),
      },
    }
    if (options.rerank && sources.length > 0) {
      await advanceAndHandOn(deps, questionId, 'reranking', { ...patch, sources })
      return 'reranking'
    }
    // The words say no, but the embedder found passages (a paraphrase, an English question over
    // Japanese documents): the reranker judges those by meaning (rerank stage, judgeByMeaning).
    const kept = sources.slice(0, options.topK)
    if (
      options.answer !== 'none' &&
      kept.some(foundByMeaning) &&
      refuses(words, kept, 'evidence', deps.retrieval)
    ) {
      await advanceAndHandOn(deps, questionId, 'reranking', { ...patch, sources: kept })
      return 'judging passages found by meaning'
    }
    // Without a reranker to choose, RAG-Fusion's wider list is cut to the wanted passages here.
    await concludeRetrieval(deps, question, kept, patch)
    return 'concluded'
  }
}
