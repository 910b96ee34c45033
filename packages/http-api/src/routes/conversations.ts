import { randomUUID } from 'node:crypto'
import { OpenAPIHono } from '@hono/zod-openapi'
import {
  askQuestion,
  conversationQuestionIds,
  createConversation,
  deleteConversation,
  listConversations,
  readConversation,
  readQuestion,
  renameConversation,
} from '@rag/questions'
import { keyOwner } from '../access/api-key.ts'
import { grantedCollectionIfNamed } from '../access/collection-access.ts'
import { askerOf } from '../access/granted.ts'
import { HttpError } from '../http-error.ts'
import { validationHook } from '../openapi/validation-hook.ts'
import type { AskRouteDeps } from './ask.ts'
import {
  createConversationRoute,
  deleteConversationRoute,
  getConversationRoute,
  listConversationsRoute,
  MAX_MESSAGE_CHARS,
  postMessageRoute,
  renameConversationRoute,
} from './conversation-specs.ts'
import { questionView } from './question-view.ts'

const missing = () => new HttpError(404, 'no such conversation')

/** Threads of questions, each owned by the API key that made it (another key sees a 404). */
export function conversationRoutes(deps: AskRouteDeps) {
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(createConversationRoute, async (c) => {
      const { title = '', collection: named } = c.req.valid('json')
      // A collection the key was not given is one it cannot know of: 404, as for one that does not exist.
      const collection = (await grantedCollectionIfNamed(c, deps.pool, named)) ?? null
      const conversation = await createConversation(deps.pool, {
        id: randomUUID(),
        owner: keyOwner(c),
        title,
        collection,
      })
      c.header('Location', `/conversations/${conversation.id}`)
      return c.json(conversation, 201)
    })
    .openapi(listConversationsRoute, async (c) =>
      c.json({ conversations: await listConversations(deps.pool, keyOwner(c)) }, 200),
    )
    .openapi(getConversationRoute, async (c) => {
      const { id } = c.req.valid('param')
      const conversation = await readConversation(deps.pool, id, keyOwner(c))
      if (!conversation) throw missing()
      const turns = await Promise.all(
        (await conversationQuestionIds(deps.pool, id)).map((questionId) =>
          readQuestion(deps.pool, questionId),
        ),
      )
      return c.json(
        {
          conversation,
          turns: turns.flatMap((turn) => (turn ? [questionView(turn, c.get('principal'))] : [])),
        },
        200,
      )
    })
    .openapi(renameConversationRoute, async (c) => {
      const { id } = c.req.valid('param')
      const owner = keyOwner(c)
      await renameConversation(deps.pool, id, owner, c.req.valid('json').title)
      const renamed = await readConversation(deps.pool, id, owner)
      if (!renamed) throw missing()
      return c.json(renamed, 200)
    })
    .openapi(deleteConversationRoute, async (c) => {
      if (!(await deleteConversation(deps.pool, c.req.valid('param').id, keyOwner(c)))) throw missing()
      return c.body(null, 204)
    })
    .openapi(postMessageRoute, async (c) => {
      const { id } = c.req.valid('param')
      const { message, options } = c.req.valid('json')
      const conversation = await readConversation(deps.pool, id, keyOwner(c))
      if (!conversation) throw missing()
      const question = message.trim()
      if ([...question].length > MAX_MESSAGE_CHARS)
        throw new HttpError(413, `the message is over ${MAX_MESSAGE_CHARS} characters`)
      if (!question) throw new HttpError(400, 'message: must not be empty', { field: 'message' })
      const collection = options.collection ?? conversation.collection ?? undefined
      const { id: questionId } = await askQuestion(
        deps,
        { question, options: { ...options, ...(collection ? { collection } : {}) }, conversationId: id },
        askerOf(c, collection),
      )
      c.header('Location', `/ask/${questionId}`)
      return c.json(
        {
          id: questionId,
          status: 'queued' as const,
          links: { self: `/ask/${questionId}`, events: `/ask/${questionId}/events` },
        },
        202,
      )
    })
}
