import { randomUUID } from 'node:crypto'
import { OpenAPIHono } from '@hono/zod-openapi'
import { listCollections } from '@rag/access'
import { askQuestion, type QuestionRecord, type WatchDeps, watchQuestion } from '@rag/questions'
import { streamSSE } from 'hono/streaming'
import { askerOf, visibleCollections } from '../../access/granted.ts'
import type { AskRouteDeps } from '../ask.ts'
import { questionAccess } from '../question-access.ts'
import { completionOf } from './chat-answer.ts'
import { ALL_COLLECTIONS, chatQuestion, unknownModel } from './chat-request.ts'
import { streamChat } from './chat-stream.ts'
import { chatUiTaskAnswer, streamTask, taskCompletion } from './chat-ui-task.ts'
import { openAiError, openAiValidationHook } from './openai-error.ts'
import { chatCompletionsRoute, listModelsRoute, retrieveModelRoute } from './openai-specs.ts'

/** Every collection's name (each is a model; visibleCollections keeps the key's). */
async function collections(deps: AskRouteDeps): Promise<string[]> {
  return (await listCollections(deps.pool, null)).map((collection) => collection.name)
}

const modelOf = (id: string, created = Math.floor(Date.now() / 1000)) => ({
  id,
  object: 'model' as const,
  created,
  owned_by: 'rag-platform',
})

/**
 * OpenAI's chat API over the question pipeline, for chat UIs and SDKs that speak it (Open WebUI,
 * LibreChat, Continue, the openai packages): GET /v1/models lists one model per collection plus
 * "all"; POST /v1/chat/completions asks the last user message with the earlier ones as the
 * conversation (rewritten to stand alone and read by the answer), streams OpenAI's chunks or
 * returns the completion, and cites its passages both in the text and in `citations`. Its steps:
 * the question of the request (chatQuestion), asked (askQuestion), then followed as a stream
 * (streamChat) or waited for whole (completionOf).
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
      { once: true },
    )
  return new OpenAPIHono({ defaultHook: openAiValidationHook })
    .openapi(listModelsRoute, async (c) => {
      const created = Math.floor(Date.now() / 1000)
      // Only the collections this key may see are models: the others do not exist for it.
      const ids = [ALL_COLLECTIONS, ...visibleCollections(c, await collections(deps))]
      return c.json({ object: 'list' as const, data: ids.map((id) => modelOf(id, created)) }, 200)
    })
    .openapi(retrieveModelRoute, async (c) => {
      const { model } = c.req.valid('param')
      if (model !== ALL_COLLECTIONS && !visibleCollections(c, await collections(deps)).includes(model))
        throw unknownModel(model)
      return c.json(modelOf(model), 200)
    })
    .openapi(chatCompletionsRoute, async (c) => {
      const body = c.req.valid('json')
      // A chat UI's own background task (a title, tags…): answered at once, never a question.
      const task = chatUiTaskAnswer(body)
      if (task !== null) {
        const taskBase = {
          id: `chatcmpl-${randomUUID()}`,
          created: Math.floor(Date.now() / 1000),
          model: body.model,
        }
        if (body.stream) return streamSSE(c, (stream) => streamTask(stream, taskBase, task))
        return c.json(taskCompletion(taskBase, task), 200)
      }
      const { request, collection } = chatQuestion(body, visibleCollections(c, await collections(deps)))
      const { id } = await askQuestion(deps, request, askerOf(c, collection))
      const base = { id: `chatcmpl-${id}`, created: Math.floor(Date.now() / 1000), model: body.model }
      const signal = c.req.raw.signal
      cancelWhenGone(id, signal)
      if (body.stream) {
        return streamSSE(c, async (stream) => {
          const revoked = deps.revocations?.watch(c)
          try {
            await streamChat(
              stream,
              {
                id,
                base,
                includeUsage: body.stream_options?.include_usage === true,
                watch,
                signal,
                ...(revoked ? { revoked: revoked.signal } : {}),
              },
              async () => {
                await questions.cancel(id, 'its API key was revoked').catch(() => undefined)
              },
            )
          } finally {
            revoked?.stop()
          }
        })
      }
      let finished: QuestionRecord | undefined
      for await (const update of watchQuestion(id, watch, { signal }))
        if (update.type === 'finished') finished = update.question
      // Only when the client went away: nobody reads this.
      if (!finished)
        throw openAiError(500, 'the client went away before the answer', { type: 'server_error' })
      if (finished.status === 'failed')
        throw openAiError(500, `the answer failed: ${finished.error}`, { type: 'server_error' })
      return c.json(completionOf(base, finished), 200)
    })
}
