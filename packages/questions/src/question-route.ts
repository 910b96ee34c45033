import { isQuestionFinished } from '@rag/api-contract/enums'
import { generateJob, type JobDefinition, rerankJob, retrieveJob } from '@rag/queue'
import type { RoutedQuestion } from './question-store.ts'

export type { RoutedQuestion }

/**
 * The steps a question can take, and the worker of each: the LLM makes a follow-up stand alone
 * (rewrite) and writes RAG-Fusion's phrasings (rephrase), retrieval searches once, the
 * cross-encoder reranks, the LLM answers.
 */
export const QUESTION_STEPS = {
  rewrite: { worker: 'LLM' },
  rephrase: { worker: 'LLM' },
  retrieve: { worker: 'retrieve' },
  rerank: { worker: 'rerank' },
  answer: { worker: 'LLM' },
} as const
export type QuestionStep = keyof typeof QUESTION_STEPS

/**
 * A question's route, the one place it is written: the step that moves it on from where it
 * stands, or null when it is finished. A pure function of the stored question, so a stage hands
 * on by it and the reconciler resumes by it (a question whose job Redis lost), the same way.
 *
 *   [rewrite] → [rephrase] → retrieve → [rerank] → [answer] → done
 */
export function nextStep(question: RoutedQuestion): QuestionStep | null {
  const { status, options } = question
  if (isQuestionFinished(status)) return null
  if (status === 'reranking') return 'rerank'
  if (status === 'generating') return 'answer'
  // Queued or retrieving: the search is still to be made, from a query that stands alone.
  const followUp = question.history.length > 0 && question.searchQuery === null
  // Without an LLM answer the follow-up is made to stand alone by rule, in the retrieve step.
  if (followUp && options.answer === 'generate') return 'rewrite'
  if (options.fusion && question.queries === null) return 'rephrase'
  return 'retrieve'
}

/** The job (and payload) that runs a step of this question. */
export function jobOfStep(
  step: QuestionStep,
  questionId: string,
  // biome-ignore lint/suspicious/noExplicitAny: each job's payload is checked by its definition at enqueue
): { definition: JobDefinition<any>; payload: Record<string, unknown> } {
  switch (step) {
    case 'retrieve':
      return { definition: retrieveJob, payload: { questionId } }
    case 'rerank':
      return { definition: rerankJob, payload: { questionId } }
    case 'answer':
      return { definition: generateJob, payload: { questionId, task: 'answer' } }
    default:
      return { definition: generateJob, payload: { questionId, task: step } }
  }
}
