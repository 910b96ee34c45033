import { randomUUID } from 'node:crypto'
import type { ModelsSection, RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import {
  askRequestSchema,
  createQuestion,
  failStalledQuestions,
  isFinished,
  type QuestionRecord,
  readQuestion,
  resolveOptions,
} from '@rag/questions'
import {
  type Producer,
  type QuestionEvent,
  type QuestionEventSubscriber,
  readPartialAnswer,
  retrieveJob,
} from '@rag/queue'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { streamSSE } from 'hono/streaming'
import { z } from 'zod'
import { HttpError } from '../http-error.ts'

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
const KEEPALIVE_MS = 15_000

const questionId = z.uuid()

function idParam(raw: string): string {
  const parsed = questionId.safeParse(raw)
  if (!parsed.success) throw new HttpError(400, `invalid question id ${JSON.stringify(raw)}: expected a UUID`)
  return parsed.data
}

/** The answer as clients see it (internal ids left out). */
export function questionView(question: QuestionRecord) {
  return {
    id: question.id,
    status: question.status,
    question: question.question,
    options: question.options,
    answer: question.answer,
    refused: question.refused,
    citations: question.citations,
    sources: question.sources.map(({ chunkId: _chunkId, ...source }) => source),
    degraded: question.degraded,
    /** RAG-Fusion: the rephrasings that were searched besides the question. */
    queries: question.queries,
    timings: question.timings,
    usage: question.usage,
    error: question.error,
    createdAt: question.createdAt,
    expiresAt: question.expiresAt,
  }
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
    await failStalledQuestions(deps.pool, deps.retrieval.questionTimeoutSeconds)
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
      return streamSSE(c, async (stream) => {
        const pending: QuestionEvent[] = []
        let wake: (() => void) | undefined
        let closed = false
        stream.onAbort(() => {
          closed = true
          wake?.()
        })
        // Subscribe before reading the state, so nothing happens unseen in between.
        const unsubscribe = await deps.questionEvents.subscribe(id, (event) => {
          pending.push(event)
          wake?.()
        })
        const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) })
        // Bytes of the answer already sent: a late joiner first gets the partial answer, then
        // only tokens past it.
        let delivered = 0
        const catchUp = async () => {
          const partial = Buffer.from(await readPartialAnswer(deps.producer.redis, deps.queuePrefix, id))
          if (partial.length <= delivered) return
          await send('token', { text: partial.subarray(delivered).toString() })
          delivered = partial.length
        }
        try {
          let question = await current(id)
          await send('status', { status: question.status })
          if (question.status === 'generating') await catchUp()
          while (!closed && !isFinished(question.status)) {
            if (pending.length === 0) {
              await new Promise<void>((resolve) => {
                wake = resolve
                setTimeout(resolve, KEEPALIVE_MS)
              })
              wake = undefined
            }
            if (pending.length === 0) {
              // Quiet: keep proxies from closing the stream, and notice an end whose event was missed.
              await stream.write(': keep-alive\n\n')
              question = await current(id)
              continue
            }
            for (const event of pending.splice(0)) {
              if (event.type === 'status') await send('status', { status: event.status })
              else if (event.type === 'token') {
                if (event.offset === delivered) {
                  await send('token', { text: event.text })
                  delivered += Buffer.byteLength(event.text)
                } else if (event.offset > delivered) await catchUp()
              } else if (event.type === 'restart') {
                delivered = 0
                await send('restart', {})
              } else question = await current(id)
            }
          }
          if (!closed) await send('done', questionView(question))
        } finally {
          await unsubscribe()
        }
      })
    })
}
