import type { TextGenerator } from '@rag/llm'
import type { generateJob, JobContext, JobHandler } from '@rag/queue'
import { answerDeclines } from '../answer-declines.ts'
import { buildAnswerPrompt } from '../answer-prompt.ts'
import { citationsOf, normalizeCitationMarkers } from '../citations.ts'
import { followUpQuery } from '../conversations/follow-up-query.ts'
import { buildRewritePrompt, parseRewrite } from '../conversations/rewrite-prompt.ts'
import { buildFusionPrompt, parseRephrasings } from '../fusion-prompt.ts'
import { languageOf } from '../language.ts'
import { isFinished, type QuestionRecord, readQuestion, touchQuestion } from '../question-store.ts'
import { extractiveAnswer } from './conclude-retrieval.ts'
import type { QuestionContext } from './question-context.ts'
import { advance, advanceAndHandOn, elapsedMs } from './question-progress.ts'

/** How often a streaming answer marks its progress (the stall sweeper fails silent questions). */
const TOUCH_EVERY_MS = 5000

async function answer(deps: QuestionContext, question: QuestionRecord, context: JobContext) {
  const started = performance.now()
  await advance(deps, question.id, 'generating')
  // A retry (worker crashed mid-answer) starts the answer over: watchers drop what they have.
  if (context.resumed) {
    await deps.publish(question.id, { type: 'restart' })
  }
  const generator = await deps.getGenerator()
  const answerWithoutLlm = async () => {
    await deps.publish(question.id, { type: 'restart' })
    await advance(deps, question.id, 'done', {
      ...(await extractiveAnswer(deps, question.question, question.sources)),
      degraded: ['generate'],
      timings: { generateMs: elapsedMs(started) },
    })
  }
  if (!generator) {
    await answerWithoutLlm()
    return 'extractive (no LLM)'
  }
  try {
    return await generateAnswer(deps, question, generator, started)
  } catch (error) {
    // The LLM failed every attempt (its server unreachable or dying mid-answer): the question still
    // gets the answer the passages give, saying the LLM was not there, rather than failing.
    if (!context.lastAttempt) throw error
    await answerWithoutLlm()
    return `extractive (the LLM failed: ${error instanceof Error ? error.message : String(error)})`
  }
}

async function generateAnswer(
  deps: QuestionContext,
  question: QuestionRecord,
  generator: TextGenerator,
  started: number,
) {
  const language = languageOf(question.question)
  const maxTokens = question.options.maxTokens ?? deps.generation.maxTokens
  const temperature = question.options.temperature ?? deps.generation.temperature
  const prompt = buildAnswerPrompt({
    question: question.question,
    language,
    sources: question.sources,
    parents: question.options.parents,
    budget: generator,
    maxTokens,
    history: question.history,
  })
  let touched = Date.now()
  const result = await generator.generate({
    system: prompt.system,
    prompt: prompt.prompt,
    maxTokens,
    temperature,
    onText: (text) => {
      void deps.publish(question.id, { type: 'token', text })
      if (Date.now() - touched > TOUCH_EVERY_MS) {
        touched = Date.now()
        void touchQuestion(deps.pool, question.id).catch(() => undefined)
      }
    },
  })
  const answer = normalizeCitationMarkers(result.text)
  await advance(deps, question.id, 'done', {
    answer,
    // The model declining (「資料には記載がありません」) is a refusal like the evidence gate's.
    refused: answerDeclines(answer),
    sources: prompt.sources,
    citations: citationsOf(answer, prompt.sources),
    usage: { promptTokens: result.promptTokens, completionTokens: result.completionTokens },
    timings: { generateMs: elapsedMs(started) },
  })
  return 'answered'
}

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
    const question = await readQuestion(deps.pool, questionId)
    if (!question || isFinished(question.status)) return 'skipped'
    // Making the query (standing alone, rephrased) is part of retrieving it.
    if (task !== 'answer') await advance(deps, questionId, 'retrieving')
    if (task === 'rephrase') {
      await rephrase(deps, question, await deps.getGenerator())
      return 'rephrased'
    }
    if (task === 'rewrite') {
      await rewrite(deps, question, await deps.getGenerator())
      return 'rewritten'
    }
    return answer(deps, question, context)
  }
}
