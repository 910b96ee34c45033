import type { TextGenerator } from '@rag/llm'
import type { generateJob, JobHandler } from '@rag/queue'
import { followUpQuery } from '../conversations/follow-up-query.ts'
import { buildRewritePrompt, parseRewrite } from '../conversations/rewrite-prompt.ts'
import { buildFusionPrompt, parseRephrasings } from '../fusion-prompt.ts'
import { languageOf } from '../language.ts'
import { isFinished, type QuestionRecord, readQuestion } from '../question-store.ts'
import { answerTask } from './answer-task.ts'
import { handOnNextAnswer } from './hand-on.ts'
import type { QuestionContext } from './question-context.ts'
import { advance, advanceAndHandOn, elapsedMs } from './question-progress.ts'

async function rephrase(deps: QuestionContext, question: QuestionRecord, generator: TextGenerator | null) {
  const started = performance.now()
  const count = deps.generation.fusionQueries
  let queries: string[] = []
  if (generator) {
    const { system, prompt } = buildFusionPrompt(
      question.searchQuery ?? question.question,
      languageOf(question.question),
      count,
    )
    const result = await generator.generate({
      system,
      prompt,
      maxTokens: Math.min(64 * count, deps.generation.maxTokens),
      temperature: deps.generation.temperature,
    })
    queries = parseRephrasings(result.text, question.question, count)
  }
  await advanceAndHandOn(deps, question.id, 'retrieving', {
    queries,
    degraded: generator ? [] : ['fusion'],
    timings: { rephraseMs: elapsedMs(started) },
  })
}

/** A follow-up made to stand alone by the LLM (the rule-based one when it gives nothing usable). */
async function rewrite(deps: QuestionContext, question: QuestionRecord, generator: TextGenerator | null) {
  const started = performance.now()
  let rewritten: string | null = null
  if (generator) {
    const { system, prompt } = buildRewritePrompt(
      question.question,
      question.history,
      languageOf(question.question),
    )
    const result = await generator.generate({ system, prompt, maxTokens: 96, temperature: 0 })
    rewritten = parseRewrite(result.text)
  }
  await advanceAndHandOn(deps, question.id, 'retrieving', {
    searchQuery: rewritten ?? followUpQuery(question.question, question.history),
    timings: { rewriteMs: elapsedMs(started) },
  })
}

/** question.generate: the LLM writes the answer (streamed to watchers), RAG-Fusion's rephrasings, or a follow-up's standalone query. */
export function generateStage(deps: QuestionContext): JobHandler<typeof generateJob.payload> {
  return async ({ questionId, task }, context) => {
    if (task === 'answer')
      // However the answer ends, its asker's next one is handed on (see answer-turns.ts).
      try {
        return await answerStep(deps, questionId, context)
      } finally {
        await handOnNextAnswer(deps, questionId).catch((error: unknown) =>
          deps.logger.warn({ err: error, questionId }, "could not hand on the asker's next answer"),
        )
      }
    const question = await readQuestion(deps.pool, questionId)
    if (!question || isFinished(question.status)) return 'skipped'
    // Making the query (standing alone, rephrased) is part of retrieving it.
    await advance(deps, questionId, 'retrieving')
    if (task === 'rephrase') {
      await rephrase(deps, question, await deps.getGenerator())
      return 'rephrased'
    }
    await rewrite(deps, question, await deps.getGenerator())
    return 'rewritten'
  }
}

async function answerStep(
  deps: QuestionContext,
  questionId: string,
  context: Parameters<typeof answerTask>[2],
) {
  const question = await readQuestion(deps.pool, questionId)
  if (!question || isFinished(question.status)) return 'skipped'
  return answerTask(deps, question, context)
}
