import { definePipeline, type FinalFailure, questionJobs } from '@rag/queue'
import { generateStage } from './stages/generate-stage.ts'
import { handOnNextAnswer } from './stages/hand-on.ts'
import type { QuestionContext } from './stages/question-context.ts'
import { failQuestionOnFinalFailure } from './stages/question-progress.ts'
import { rerankStage } from './stages/rerank-stage.ts'
import { retrieveStage } from './stages/retrieve-stage.ts'

/**
 * The question pipeline's table: each job paired with its handler and failure hook, read by the
 * worker processes, the in-process workers of tests and `pnpm eval`. Which step a question takes
 * next is its own route (nextStep in question-route.ts), not a fixed order.
 */
export const questionPipeline = definePipeline<QuestionContext>()(questionJobs, {
  retrieve: {
    handler: retrieveStage,
    onFinalFailure: (context) => failQuestionOnFinalFailure(context, 'retrieve'),
  },
  rerank: {
    handler: rerankStage,
    onFinalFailure: (context) => failQuestionOnFinalFailure(context, 'rerank'),
  },
  generate: {
    handler: generateStage,
    onFinalFailure: (context) => {
      const fail = failQuestionOnFinalFailure(context, 'generate')
      // An answer that failed for good ends its turn: the asker's next one is handed on.
      return async (payload: { questionId: string }, failure: FinalFailure) => {
        await fail(payload, failure)
        await handOnNextAnswer(context, payload.questionId)
      }
    },
  },
})
