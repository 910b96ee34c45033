import type { TextGenerator } from '@rag/llm'
import { type generateJob, type JobContext, type JobHandler, retrieveJob } from '@rag/queue'
import { answerDeclines } from '../answer-declines.ts'
import { buildAnswerPrompt } from '../answer-prompt.ts'
import { citationsOf, normalizeCitationMarkers } from '../citations.ts'
import { buildFusionPrompt, parseRephrasings } from '../fusion-prompt.ts'
import { languageOf } from '../language.ts'
import { isFinished, type QuestionRecord, readQuestion, touchQuestion } from '../question-store.ts'
import { extractiveAnswer } from './conclude-retrieval.ts'
import { handOn } from './hand-on.ts'
import { advance, elapsedMs } from './question-progress.ts'
import type { GenerateStageDeps } from './stage-deps.ts'

/** How often a streaming answer marks its progress (the stall sweeper fails silent questions). */
const TOUCH_EVERY_MS = 5000

async function answer(deps: GenerateStageDeps, question: QuestionRecord, context: JobContext) {
  const started = performance.now()
  await advance(deps, question.id, 'generating')
  // A retry (worker crashed mid-answer) starts the answer over: watchers drop what they have.
  if (context.resumed) {
    await deps.publish(question.id, { type: 'restart' })
  }
  const generator = await deps.getGenerator()
  if (!generator) {
    await advance(deps, question.id, 'done', {
      ...(await extractiveAnswer(deps, question.question, question.sources)),
      degraded: ['generate'],
      timings: { generateMs: elapsedMs(started) },
    })
    return 'extractive (no LLM)'
  }
  const language = languageOf(question.question)
  const { maxTokens, temperature } = deps.generation
  const prompt = buildAnswerPrompt({
    question: question.question,
    language,
    sources: question.sources,
    parents: question.options.parents,
    budget: generator,
    maxTokens,
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

async function rephrase(deps: GenerateStageDeps, question: QuestionRecord, generator: TextGenerator | null) {
  const started = performance.now()
  const count = deps.generation.fusionQueries
  let queries: string[] = []
  if (generator) {
    const { system, prompt } = buildFusionPrompt(question.question, languageOf(question.question), count)
    const result = await generator.generate({
      system,
      prompt,
      maxTokens: Math.min(64 * count, deps.generation.maxTokens),
      temperature: deps.generation.temperature,
    })
    queries = parseRephrasings(result.text, question.question, count)
  }
  await advance(deps, question.id, 'retrieving', {
    queries,
    degraded: generator ? [] : ['fusion'],
    timings: { rephraseMs: elapsedMs(started) },
  })
  await handOn(deps, question.id, retrieveJob, { questionId: question.id, fused: true })
}

/** question.generate: the LLM writes the answer (streamed to watchers) or, for RAG-Fusion, the rephrasings. */
export function generateStage(deps: GenerateStageDeps): JobHandler<typeof generateJob.payload> {
  return async ({ questionId, task }, context) => {
    const question = await readQuestion(deps.pool, questionId)
    if (!question || isFinished(question.status)) return 'skipped'
    if (task === 'rephrase') {
      await rephrase(deps, question, await deps.getGenerator())
      return 'rephrased'
    }
    return answer(deps, question, context)
  }
}
