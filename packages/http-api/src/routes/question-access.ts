import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import {
  cancelQuestion,
  failStalledQuestions,
  handOnNextAnswer,
  queueSpotOf,
  readQuestion,
  type WatchedQuestion,
  waitsItsTurn,
} from '@rag/questions'
import { type Producer, questionEventPublisher, readPartialAnswer } from '@rag/queue'
import { questionWatchers } from './question-watchers.ts'

/**
 * How the question routes (`/ask`, `/v1/chat/completions`) read, follow and cancel a question:
 * read, it is first failed if it made no progress of its own for QUESTION_TIMEOUT_SECONDS (waiting
 * its turn for the LLM is not that), and shows its place in the LLM's line.
 */
export function questionAccess(deps: {
  pool: Pool
  producer: Producer
  retrieval: RetrievalSection
  queuePrefix: string
}) {
  const publish = questionEventPublisher(deps.producer.redis, deps.queuePrefix)
  /** The question as `owner` may see it (none: as the gateway itself sees it). */
  const find = async (id: string, owner?: string): Promise<WatchedQuestion | null> => {
    await failStalledQuestions(deps.pool, deps.retrieval.questionTimeoutSeconds, id, (question, limit) =>
      waitsItsTurn(deps, question, limit),
    )
    const question = await readQuestion(deps.pool, id, { owner })
    if (!question) return null
    const queue = await queueSpotOf(deps, question).catch(() => null)
    return { ...question, queue }
  }
  return {
    find,
    partialAnswer: (id: string) => readPartialAnswer(deps.producer.redis, deps.queuePrefix, id),
    watchers: questionWatchers(deps.producer.redis, deps.queuePrefix),
    /**
     * Ends it as cancelled; false when it had already finished. Its asker's next answer is handed
     * to the LLM at once (it takes this one's place in line as soon as the LLM lets this one go).
     */
    cancel: async (id: string, reason: string) => {
      const cancelled = await cancelQuestion({ pool: deps.pool, publish }, id, reason)
      if (cancelled) await handOnNextAnswer(deps, id)
      return cancelled
    },
  }
}
