import { REASONING_MODEL, type TextGenerator, ThinkingFilter, tokenBudgetOf, withoutThinking } from '@rag/llm'
import type { JobContext } from '@rag/queue'
import { questionWordWeights } from '@rag/retrieval'
import { answerDeclines } from '../answer-declines.ts'
import { buildAnswerPrompt } from '../answer-prompt.ts'
import { shouldYieldAnswer } from '../answer-turns.ts'
import { citationsOf, normalizeCitationMarkers } from '../citations.ts'
import { languageOf } from '../language.ts'
import { type QuestionRecord, touchQuestion } from '../question-store.ts'
import { extractiveAnswer } from './conclude-retrieval.ts'
import type { QuestionContext } from './question-context.ts'
import { advance, elapsedMs } from './question-progress.ts'

/**
 * How often an answer being written is looked at: it marks the question as moving (the stall
 * sweeper leaves it alone) and notices a question cancelled meanwhile, which stops the LLM.
 */
export const CANCEL_CHECK_MS = 500

/**
 * Marks the question as moving every `everyMs` while its answer is written, and aborts the
 * generation as soon as the question has ended otherwise (cancelled: its client gone, DELETE).
 */
export function watchWhileWriting(
  deps: Pick<QuestionContext, 'pool' | 'logger'>,
  questionId: string,
  controller: AbortController,
  everyMs = CANCEL_CHECK_MS,
  /** Whether to stop and give the LLM to another asker (shouldYieldAnswer). */
  shouldYield?: () => Promise<boolean>,
): () => void {
  const timer = setInterval(() => {
    touchQuestion(deps.pool, questionId)
      .then(async (unfinished) => {
        if (!unfinished) controller.abort(new Error('the question ended while its answer was written'))
        else if (await shouldYield?.()) controller.abort(YIELDED)
      })
      .catch((error: unknown) =>
        deps.logger.debug({ err: error, questionId }, 'could not look at the question'),
      )
  }, everyMs)
  return () => clearInterval(timer)
}

/** Why an answer stopped to give its place in the LLM's line (see shouldYieldAnswer). */
const YIELDED = new Error(
  "another asker's answer is next: this one gives its place and is written again after it",
)

/** The answer is what the passages give: the provisional one already shown, or the extractive one now. */
async function answerWithoutLlm(
  deps: QuestionContext,
  question: QuestionRecord,
  started: number,
  why?: string,
) {
  await deps.publish(question.id, { type: 'restart' })
  const extractive =
    question.provisional && question.answer !== null
      ? { refused: false }
      : await extractiveAnswer(deps, question, question.sources)
  await advance(deps, question.id, 'done', {
    ...extractive,
    provisional: false,
    degraded: ['generate'],
    ...(why ? { error: `generate: ${why} (the extractive answer stands)` } : {}),
    timings: { generateMs: elapsedMs(started) },
  })
}

/**
 * question.generate's answer task: the LLM writes the answer from the passages' answering
 * sentences (CONTEXT_TOKENS), streamed to watchers; it replaces the provisional extractive one. A
 * question cancelled meanwhile stops the LLM within CANCEL_CHECK_MS and frees it for the next.
 */
export async function answerTask(deps: QuestionContext, question: QuestionRecord, context: JobContext) {
  const started = performance.now()
  await advance(deps, question.id, 'generating')
  // A retry (worker crashed mid-answer) starts the answer over: watchers drop what they have.
  if (context.resumed) await deps.publish(question.id, { type: 'restart' })
  const generator = await deps.getGenerator()
  if (!generator) {
    await answerWithoutLlm(deps, question, started)
    return 'extractive (no LLM)'
  }
  try {
    const outcome = await generateAnswer(deps, question, generator, started)
    if (outcome === YIELDED) {
      // Its watchers drop what they have; it is written again once the other asker's is.
      await deps.publish(question.id, { type: 'restart' })
      await advance(deps, question.id, 'generating', {
        timings: { yielded: (question.timings.yielded ?? 0) + 1 },
      })
      deps.logger.info({ questionId: question.id }, YIELDED.message)
      return await context.yieldTurn()
    }
    return outcome
  } catch (error) {
    // The LLM failed every attempt (its server unreachable or dying mid-answer): the question still
    // gets the answer the passages give, saying the LLM was not there, rather than failing.
    if (!context.lastAttempt) throw error
    const why = error instanceof Error ? error.message : String(error)
    await answerWithoutLlm(deps, question, started, `the LLM failed: ${why}`)
    return `extractive (the LLM failed: ${why})`
  }
}

async function generateAnswer(
  deps: QuestionContext,
  question: QuestionRecord,
  generator: TextGenerator,
  started: number,
) {
  // A question may ask for a shorter answer than LLM_MAX_TOKENS, never a longer one; and the
  // answer never takes more than half the window (a server's may be smaller than configured).
  const maxTokens = Math.min(
    question.options.maxTokens ?? deps.generation.maxTokens,
    deps.generation.maxTokens,
    Math.floor(generator.contextSize / 2),
  )
  const temperature = question.options.temperature ?? deps.generation.temperature
  const searched = question.searchQuery ?? question.question
  const prompt = buildAnswerPrompt({
    question: question.question,
    language: languageOf(question.question),
    sources: question.sources,
    parents: question.options.parents,
    budget: tokenBudgetOf(generator, (error) =>
      deps.logger.warn(
        { err: error, model: generator.model },
        "the LLM's tokenizer failed: this prompt is counted by an estimate (over rather than under)",
      ),
    ),
    maxTokens,
    history: question.history,
    contextTokens: deps.generation.contextTokens,
    idf:
      deps.generation.contextTokens > 0
        ? await questionWordWeights(deps.pool, searched, question.options)
        : new Map(),
  })
  if (prompt.contextClamped)
    deps.logger.warn(
      { ...prompt.contextClamped, window: generator.contextSize, maxTokens },
      `CONTEXT_TOKENS ${prompt.contextClamped.asked} does not fit the LLM's window (${generator.contextSize} tokens, ${maxTokens} of them for the answer): using ${prompt.contextClamped.available}`,
    )
  const cancel = new AbortController()
  const stopWatching = watchWhileWriting(deps, question.id, cancel, CANCEL_CHECK_MS, () =>
    shouldYieldAnswer(deps, question),
  )
  // A reasoning model's <think>…</think> is neither streamed nor kept: only its answer is.
  // A reasoning model's template may open the block itself (only </think> comes): its start is held
  // until told apart; any other model's answer streams at once.
  const thinking = new ThinkingFilter({ holdStart: REASONING_MODEL.test(generator.model) })
  let written = ''
  let result: Awaited<ReturnType<TextGenerator['generate']>>
  try {
    result = await generator.generate({
      system: prompt.system,
      prompt: prompt.prompt,
      maxTokens,
      temperature,
      signal: cancel.signal,
      onText: (piece) => {
        const restarts = thinking.restarts
        let text = thinking.push(piece)
        if (thinking.restarts !== restarts) {
          // A late </think>: what was streamed was thinking; watchers start the answer again.
          written = ''
          void deps.publish(question.id, { type: 'restart' })
        }
        // Leading blank lines (what thinking leaves) are not part of the answer either.
        if (written === '') text = text.trimStart()
        if (!text) return
        written += text
        void deps.publish(question.id, { type: 'token', text })
      },
    })
  } catch (error) {
    if (cancel.signal.reason === YIELDED) return YIELDED
    if (cancel.signal.aborted) return 'stopped: the question was cancelled'
    throw error
  } finally {
    stopWatching()
  }
  written += thinking.end()
  // Streamed pieces are the answer when there were any (without what a late </think> showed was
  // thinking); a generator that gave none hands it whole.
  const text = (written ? thinking.answer : withoutThinking(result.text)).trim()
  // All thinking and no answer (the cap spent reasoning): a failure, not a refusal.
  if (text.trim() === '')
    throw new Error('the LLM wrote no answer (only reasoning, or nothing) within its token cap')
  const answer = normalizeCitationMarkers(text)
  await advance(deps, question.id, 'done', {
    answer,
    provisional: false,
    // The model declining (「資料には記載がありません」) is a refusal like the evidence gate's.
    refused: answerDeclines(answer),
    sources: prompt.sources,
    citations: citationsOf(answer, prompt.sources),
    usage: {
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      ...(result.stoppedAtCap ? { stoppedAtCap: true } : {}),
    },
    timings: { generateMs: elapsedMs(started) },
  })
  return 'answered'
}
