import { randomUUID } from 'node:crypto'
import type { ModelsSection, RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import {
  askRequestSchema,
  createQuestion,
  failStalledQuestions,
  readQuestion,
  resolveOptions,
} from '@rag/questions'
import { type Producer, type QuestionEventSubscriber, retrieveJob } from '@rag/queue'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { streamSSE } from 'hono/streaming'
import { z } from 'zod'
import { HttpError } from '../http-error.ts'
import { followQuestion } from './ask-events.ts'
import { questionView } from './question-view.ts'

export interface AskRouteDeps {
  pool: Pool
  producer: Producer
  logger: Logger
  retrieval: RetrievalSection
  /** Which models are configured: they set the default options (no reranker → no reranking). */
  models: Pick<ModelsSection, 'reranker' | 'llm'>
  questionEvents: QuestionEventSubscriber
  queuePrefix: string
}

/** A question is at most 2,000 characters; a body far past that is refused before it is read. */
const MAX_ASK_BODY_BYTES = 16 * 1024

const questionId = z.uuid()

function idParam(raw: string): string {
  const parsed = questionId.safeParse(raw)
  if (!parsed.success) throw new HttpError(400, `invalid question id ${JSON.stringify(raw)}: expected a UUID`)
  return parsed.data
}

async function readBody(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    throw new HttpError(400, 'the body is not valid JSON: expected {"question": "…", "options": {…}}')
  }
}

/** POST /ask → 202 {id}; GET /ask/:id (poll); GET /ask/:id/events (server-sent events). */
export function askRoutes(deps: AskRouteDeps) {
  // A question stuck in a stage (its workers gone) is failed, with the stage named, when looked at.
  const current = async (id: string) => {
    await failStalledQuestions(deps.pool, deps.retrieval.questionTimeoutSeconds, id)
    const question = await readQuestion(deps.pool, id)
    if (!question)
      throw new HttpError(404, `no question ${id} (unknown, or expired after its retention time)`)
    return question
  }

  return new Hono()
    .post(
      '/ask',
      bodyLimit({
        maxSize: MAX_ASK_BODY_BYTES,
        onError: () => {
          throw new HttpError(
            413,
            `the request body is over ${MAX_ASK_BODY_BYTES / 1024} KiB; a question is at most 2000 characters`,
          )
        },
      }),
      async (c) => {
        const parsed = askRequestSchema.safeParse(await readBody(c))
        if (!parsed.success) {
          const issue = parsed.error.issues[0]
          const keys = issue && 'keys' in issue ? ` ${(issue.keys as string[]).join(', ')}` : ''
          const field = issue?.path.join('.') || 'body'
          throw new HttpError(400, `invalid ${field}:${keys ? `${keys} —` : ''} ${issue?.message}`, { field })
        }
        const id = randomUUID()
        const options = resolveOptions(parsed.data.options, deps.retrieval, deps.models)
        await createQuestion(deps.pool, {
          id,
          question: parsed.data.question,
          options,
          ttlSeconds: deps.retrieval.questionTtlSeconds,
        })
        await deps.producer.enqueue(retrieveJob, { questionId: id, fused: false })
        c.header('Location', `/ask/${id}`)
        return c.json(
          { id, status: 'queued', links: { self: `/ask/${id}`, events: `/ask/${id}/events` } },
          202,
        )
      },
    )
    .get('/ask/:id', async (c) => c.json(questionView(await current(idParam(c.req.param('id'))))))
    .get('/ask/:id/events', async (c) => {
      const id = idParam(c.req.param('id'))
      await current(id)
      return streamSSE(c, (stream) => followQuestion(stream, id, { ...deps, current }))
    })
}
