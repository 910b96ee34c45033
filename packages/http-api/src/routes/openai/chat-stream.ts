import { type WatchDeps, watchQuestion } from '@rag/questions'
import type { SSEStreamingApi } from 'hono/streaming'
import { REVOKED_MESSAGE } from '../../access/revocations.ts'
import { citationsOf, finishReasonOf, lookedAtOf, streamError, usageOf } from './chat-answer.ts'
import { ForwardOnlyAnswer } from './forward-only-answer.ts'

export interface ChatStream {
  id: string
  base: { id: string; created: number; model: string }
  includeUsage: boolean
  watch: WatchDeps
  /** Ends the stream: the client went away, or (revoked) its key was revoked. */
  signal: AbortSignal
  revoked?: AbortSignal
}

/**
 * A chat completion as OpenAI's stream of chunks: the role first, the extractive stand-in as
 * reasoning (never content: content cannot be taken back), the generated text as it comes (an
 * answer begun again that differs from what was sent ends the stream with an error), the rest of
 * an answer that came whole, the sources, the finish reason, usage when asked, then [DONE].
 */
export async function streamChat(stream: SSEStreamingApi, chat: ChatStream, onRevoked: () => Promise<void>) {
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra = {}) =>
    stream.writeSSE({
      data: JSON.stringify({
        ...chat.base,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        ...extra,
      }),
    })
  const diverged = () =>
    stream.writeSSE({
      data: streamError(
        `the answer was begun again after a fault and differs from what was sent: GET /ask/${chat.id} has the answer`,
        'server_error',
        'answer_restarted',
      ),
    })
  await chunk({ role: 'assistant', content: '' }, null)
  const relay = new ForwardOnlyAnswer()
  const signal = chat.revoked ? AbortSignal.any([chat.signal, chat.revoked]) : chat.signal
  for await (const update of watchQuestion(chat.id, chat.watch, { signal })) {
    if (update.type === 'provisional' && relay.sent === '') {
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
        data: streamError(`the answer failed: ${question.error}`, 'server_error', null),
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
    const looked = lookedAtOf(question)
    if (rest || list || looked.list) await chunk({ content: rest + list + looked.list }, null)
    await chunk({}, finishReasonOf(question), { citations: passages, looked_at: looked.passages })
    if (chat.includeUsage)
      await stream.writeSSE({
        data: JSON.stringify({
          ...chat.base,
          object: 'chat.completion.chunk',
          choices: [],
          usage: usageOf(question),
        }),
      })
  }
  if (chat.revoked?.aborted) {
    await stream.writeSSE({ data: streamError(REVOKED_MESSAGE, 'invalid_request_error', 'key_revoked') })
    await onRevoked()
  }
  await stream.writeSSE({ data: '[DONE]' })
}
