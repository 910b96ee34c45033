import type { JobHandler, rerankJob } from '@rag/queue'
import type { Reranker } from '@rag/reranking'
import {
  type Answerability,
  isFinished,
  type QuestionRecord,
  type QuestionSource,
  readQuestion,
} from '../question-store.ts'
import { foundByMeaning } from '../refusal-decision.ts'
import { concludeRetrieval } from './conclude-retrieval.ts'
import type { QuestionContext } from './question-context.ts'
import { advance, elapsedMs } from './question-progress.ts'

/**
 * question.rerank: the cross-encoder scores (question, passage) pairs; the best topK are kept and
 * their relevance becomes the evidence refusal is judged on. Without a reranker the retrieval
 * order stands and the answer says `degraded: ["rerank"]`. Asked without reranking, it only judges
 * the passages the embedder alone found, which the words said nothing about (judgeByMeaning).
 */
export function rerankStage(deps: QuestionContext): JobHandler<typeof rerankJob.payload> {
  return async ({ questionId }) => {
    const question = await readQuestion(deps.pool, questionId)
    if (!question || isFinished(question.status)) return 'skipped'
    const started = performance.now()
    await advance(deps, questionId, 'reranking')
    const reranker = await deps.getReranker()
    if (!question.options.rerank) return judgeByMeaning(deps, question, reranker, started)
    const { topK } = question.options
    let sources: QuestionSource[]
    if (reranker) {
      const scores = await reranker.score(
        question.question,
        question.sources.map((source) => source.text),
      )
      sources = question.sources
        .map((source, index) => withRerankerProbability(source, scores[index] ?? 0))
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

const rounded = (probability: number) => Math.round(probability * 10000) / 10000
/** An answer stored before "why" was recorded has none: the reranker's part is still told. */
const whyOf = (source: QuestionSource) => source.why ?? { words: [], synonyms: [] }

/** A source scored by the reranker: its evidence is the reranker's probability, and it says so. */
function withRerankerProbability(source: QuestionSource, probability: number): QuestionSource {
  const score = rounded(probability)
  return { ...source, score, why: { ...whyOf(source), rerankerProbability: score } }
}

/**
 * The words said no, but the embedder found some of the passages: a paraphrase or a question in
 * another language shares few words with its answer, so the words cannot judge those. The reranker
 * scores just them (a few pairs: affordable where reranking every candidate is not, so it runs
 * with reranking off) and its threshold decides; the judged passages come first, the answer is
 * read from them.
 */
async function judgeByMeaning(
  deps: QuestionContext,
  question: QuestionRecord,
  reranker: Reranker | null,
  started: number,
): Promise<string> {
  const words = question.answerability
  if (!words) throw new Error(`question ${question.id} reached judging without its answerability`)
  const timings = { rerankMs: elapsedMs(started) }
  // With no reranker to judge them, the words' no stands: the embedder's nearest passages are
  // there for any question, so answering from them would refuse nothing in hybrid mode.
  if (!reranker) {
    await concludeRetrieval(deps, question, question.sources, { answerability: words, timings })
    return 'no reranker: refused by the words'
  }
  const judged = question.sources.filter(foundByMeaning)
  const others = question.sources.filter((source) => !foundByMeaning(source))
  const scores = await reranker.score(
    question.question,
    judged.map((source) => source.text),
  )
  const first = judged
    .map((source, index) => ({ source, score: scores[index] ?? 0 }))
    .sort((a, b) => b.score - a.score)
    .map(({ source, score }) => ({
      ...source,
      why: { ...whyOf(source), rerankerProbability: rounded(score) },
    }))
  const answerability: Answerability = {
    ...words,
    decidedBy: 'reranker',
    rerankerProbability: rounded(Math.max(0, ...scores)),
  }
  const sources = [...first, ...others].map((source, index) => ({ ...source, rank: index + 1 }))
  await concludeRetrieval(deps, question, sources, {
    answerability,
    timings: { rerankMs: elapsedMs(started) },
  })
  return 'judged by the reranker'
}
