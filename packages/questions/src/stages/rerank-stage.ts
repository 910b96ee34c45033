import type { JobHandler, rerankJob } from '@rag/queue'
import { isFinished, type QuestionSource, readQuestion } from '../question-store.ts'
import { concludeRetrieval } from './conclude-retrieval.ts'
import type { QuestionContext } from './question-context.ts'
import { advance, elapsedMs } from './question-progress.ts'

/**
 * question.rerank: the cross-encoder scores (question, passage) pairs; the best topK are kept and
 * their relevance becomes the evidence refusal is judged on. Without a reranker the retrieval
 * order stands and the answer says `degraded: ["rerank"]`.
 */
export function rerankStage(deps: QuestionContext): JobHandler<typeof rerankJob.payload> {
  return async ({ questionId }) => {
    const question = await readQuestion(deps.pool, questionId)
    if (!question || isFinished(question.status)) return 'skipped'
    const started = performance.now()
    await advance(deps, questionId, 'reranking')
    const { topK } = question.options
    const reranker = await deps.getReranker()
    let sources: QuestionSource[]
    if (reranker) {
      const scores = await reranker.score(
        question.question,
        question.sources.map((source) => source.text),
      )
      sources = question.sources
        .map((source, index) => ({ ...source, score: Math.round((scores[index] ?? 0) * 10000) / 10000 }))
        .sort((a, b) => b.score - a.score || a.rank - b.rank)
    } else {
      sources = question.sources
    }
    const kept = sources.slice(0, topK).map((source, index) => ({ ...source, rank: index + 1 }))
    await concludeRetrieval(
      deps,
      question,
      kept,
      { degraded: reranker ? [] : ['rerank'], timings: { rerankMs: elapsedMs(started) } },
      reranker ? 'reranker' : 'evidence',
    )
    return reranker ? 'reranked' : 'kept retrieval order'
  }
}
