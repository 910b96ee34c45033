import { randomUUID } from 'node:crypto'
import { OpenAPIHono } from '@hono/zod-openapi'
import { MAX_QUESTION_CHARS } from '@rag/api-contract'
import {
  askQuestion,
  HISTORY_TURNS,
  languageOf,
  type QuestionRecord,
  type WatchDeps,
  watchQuestion,
} from '@rag/questions'
import { streamSSE } from 'hono/streaming'
import { keyOwner } from '../../access/api-key.ts'
import { askerOf, visibleCollections } from '../../access/granted.ts'
import { REVOKED_MESSAGE } from '../../access/revocations.ts'
import type { AskRouteDeps } from '../ask.ts'
import { questionAccess } from '../question-access.ts'
import { historyOf, textOf } from './chat-request.ts'
import { ForwardOnlyAnswer } from './forward-only-answer.ts'
import { openAiError, openAiValidationHook } from './openai-error.ts'
import { chatCompletionsRoute, listModelsRoute, retrieveModelRoute } from './openai-specs.ts'

/** Every document, whatever its collection. */
const ALL = 'all'
const SOURCES: Record<'ja' | 'en', string> = { ja: '出典', en: 'Sources' }

async function collections(deps: AskRouteDeps): Promise<string[]> {
  const { rows } = await deps.pool.query<{ collection: string }>(
    'SELECT DISTINCT collection FROM documents ORDER BY collection',
  )
  return rows.map((row) => row.collection)
}

/** The cited passages, as an extra field and as a list a chat window shows after the answer. */
function citationsOf(question: QuestionRecord) {
  const cited = question.refused ? [] : question.citations
  const passages = cited.flatMap((citation) => {
    const source = question.sources.find(
      (s) => s.rank === citation.marker && s.sourceId === citation.sourceId,
    )
    return source
      ? [{ marker: citation.marker, sourceId: source.sourceId, title: source.title, text: source.text }]
      : []
  })
  const list =
    passages.length > 0
      ? `\n\n${SOURCES[languageOf(question.question)]}:\n${passages.map((p) => `[${p.marker}] ${p.sourceId}`).join('\n')}`
      : ''
  return { passages, list }
}

const usageOf = (question: QuestionRecord) => {
  const prompt = question.usage?.promptTokens ?? 0
  const completion = question.usage?.completionTokens ?? 0
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

/**
 * OpenAI's chat API over the question pipeline, for chat UIs and SDKs that speak it (Open WebUI,
 * LibreChat, Continue, the openai packages): GET /v1/models lists one model per collection plus
 * "all"; POST /v1/chat/completions asks the last user message with the earlier ones as the
 * conversation (rewritten to stand alone and read by the answer), streams OpenAI's chunks or
 * returns the completion, and cites its passages both in the text and in `citations`.
 */
export function openAiRoutes(deps: AskRouteDeps) {
  const questions = questionAccess(deps)
  const watch: WatchDeps = {
    events: deps.questionEvents,
    partialAnswer: questions.partialAnswer,
    current: async (id) => {
      const question = await questions.find(id)
      if (!question) throw openAiError(500, `the question ${id} is gone`, { type: 'server_error' })
      return question
    },
  }
  // An OpenAI client cannot resume: once it has gone (stream closed, request aborted) nobody will
  // read the answer, so the question is cancelled and the LLM freed for the next.
  const cancelWhenGone = (id: string, signal: AbortSignal) =>
    signal.addEventListener(
      'abort',
      () => void questions.cancel(id, 'the OpenAI client went away').catch(() => undefined),
      {
        once: true,
      },
    )
  return new OpenAPIHono({ defaultHook: openAiValidationHook })
    .openapi(listModelsRoute, async (c) => {
      const created = Math.floor(Date.now() / 1000)
      // Only the collections this key may see are models: the others do not exist for it.
      const ids = [ALL, ...visibleCollections(c, await collections(deps))]
      return c.json(
        {
          object: 'list' as const,
          data: ids.map((id) => ({ id, object: 'model' as const, created, owned_by: 'rag-platform' })),
        },
        200,
      )
    })
    .openapi(retrieveModelRoute, async (c) => {
      const { model } = c.req.valid('param')
      if (model !== ALL && !visibleCollections(c, await collections(deps)).includes(model))
        throw openAiError(404, `the model ${model} does not exist: GET /v1/models lists them`, {
          param: 'model',
          code: 'model_not_found',
        })
      return c.json(
        {
          id: model,
          object: 'model' as const,
          created: Math.floor(Date.now() / 1000),
          owned_by: 'rag-platform',
        },
        200,
      )
    })
    .openapi(chatCompletionsRoute, async (c) => {
      const body = c.req.valid('json')
      const last = body.messages.at(-1)
      if (!last) throw openAiError(400, 'messages must hold at least one message', { param: 'messages' })
      if (last.role !== 'user')
        throw openAiError(400, `the last message must be from the user, not ${last.role}`, {
          param: 'messages',
        })
      const text = textOf(last).trim()
      if (!text) throw openAiError(400, 'the last message is empty', { param: 'messages' })
      if ([...text].length > MAX_QUESTION_CHARS)
        throw openAiError(413, `the last message is over ${MAX_QUESTION_CHARS} characters`, {
          param: 'messages',
          code: 'message_too_long',
        })
      if (body.model !== ALL && !visibleCollections(c, await collections(deps)).includes(body.model))
        throw openAiError(404, `the model ${body.model} does not exist: GET /v1/models lists them`, {
          param: 'model',
          code: 'model_not_found',
        })
      const collection = body.model !== ALL ? body.model : undefined
      const { id } = await askQuestion(
        deps,
        {
          question: text,
          options: {
            ...(collection ? { collection } : {}),
            ...(body.max_completion_tokens || body.max_tokens
              ? { maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined }
              : {}),
            ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
          },
          history: historyOf(body.messages.slice(0, -1)).slice(-HISTORY_TURNS),
        },
        askerOf(c, collection),
      )
      const base = { id: `chatcmpl-${id}`, created: Math.floor(Date.now() / 1000), model: body.model }
      const signal = c.req.raw.signal

      if (body.stream) {
        return streamSSE(c, async (stream) => {
          const chunk = (delta: Record<string, unknown>, finish: string | null, extra = {}) =>
            stream.writeSSE({
              data: JSON.stringify({
                ...base,
                object: 'chat.completion.chunk',
                choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
                ...extra,
              }),
            })
          await chunk({ role: 'assistant', content: '' }, null)
          cancelWhenGone(id, signal)
          const relay = new ForwardOnlyAnswer()
          const diverged = () =>
            stream.writeSSE({
              data: JSON.stringify({
                error: {
                  message: `the answer was begun again after a fault and differs from what was sent: GET /ask/${id} has the answer`,
                  type: 'server_error',
                  param: null,
                  code: 'answer_restarted',
                },
              }),
            })
          const revoked = deps.revocations?.watch(c)
          const watching = revoked ? AbortSignal.any([signal, revoked.signal]) : signal
          for await (const update of watchQuestion(id, watch, { signal: watching })) {
            if (update.type === 'provisional' && relay.sent === '') {
              // The extractive answer, at once, where chat UIs show a model's reasoning (a block of
              // its own): never as content, since content cannot be taken back and would read as
              // one text with the generated answer that follows.
              await chunk({ reasoning_content: update.question.answer ?? '' }, null)
              continue
            }
            if (update.type === 'restart') {
              relay.restart()
              continue
            }
            if (update.type === 'text') {
              const text = relay.append(update.text)
              if (text === null) {
                await diverged()
                break
              }
              if (text) await chunk({ content: text }, null)
              continue
            }
            if (update.type !== 'finished') continue
            const question = update.question
            if (question.status === 'failed') {
              await stream.writeSSE({
                data: JSON.stringify({
                  error: {
                    message: `the answer failed: ${question.error}`,
                    type: 'server_error',
                    param: null,
                    code: null,
                  },
                }),
              })
              break
            }
            // An answer not written token by token (extractive, a refusal) comes whole here.
            const rest = relay.finish(question.answer ?? '')
            if (rest === null) {
              await diverged()
              break
            }
            const { passages, list } = citationsOf(question)
            if (rest || list) await chunk({ content: rest + list }, null)
            await chunk({}, finishReasonOf(question), { citations: passages })
            if (body.stream_options?.include_usage)
              await stream.writeSSE({
                data: JSON.stringify({
                  ...base,
                  object: 'chat.completion.chunk',
                  choices: [],
                  usage: usageOf(question),
                }),
              })
          }
          revoked?.stop()
          if (revoked?.signal.aborted) {
            await stream.writeSSE({
              data: JSON.stringify({
                error: {
                  message: REVOKED_MESSAGE,
                  type: 'invalid_request_error',
                  param: null,
                  code: 'key_revoked',
                },
              }),
            })
            await questions.cancel(id, 'its API key was revoked').catch(() => undefined)
          }
          await stream.writeSSE({ data: '[DONE]' })
        })
      }

      let finished: QuestionRecord | undefined
      cancelWhenGone(id, signal)
      for await (const update of watchQuestion(id, watch, { signal }))
        if (update.type === 'finished') finished = update.question
      // Only when the client went away: nobody reads this.
      if (!finished)
        throw openAiError(500, 'the client went away before the answer', { type: 'server_error' })
      if (finished.status === 'failed')
        throw openAiError(500, `the answer failed: ${finished.error}`, { type: 'server_error' })
      const { passages, list } = citationsOf(finished)
      return c.json(
        {
          ...base,
          object: 'chat.completion' as const,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant' as const,
                content: `${finished.answer ?? ''}${list}`,
                // OpenAI's field for a model declining on policy grounds: never, here (a refusal
                // for want of documents is an answer saying so).
                refusal: null,
              },
              finish_reason: finishReasonOf(finished),
              logprobs: null,
            },
          ],
          usage: usageOf(finished),
          citations: passages,
        },
        200,
      )
    })
}

/** OpenAI's finish reason: `length` when the answer stopped at its token cap, else `stop`. */
function finishReasonOf(question: QuestionRecord): 'stop' | 'length' {
  const cap = question.options.maxTokens
  return question.usage && cap !== undefined && question.usage.completionTokens >= cap ? 'length' : 'stop'
}
