import type { SSEStreamingApi } from 'hono/streaming'
import { type ChatCompletionRequest, textOf } from './chat-request.ts'

/**
 * Open WebUI (and chat UIs built like it) send their own background tasks to the chat model — a
 * title for the chat, tags, follow-up suggestions, search queries — as a user message starting
 * `### Task:`. Asked of the documents, each became a question (a refusal ended up as a chat's
 * title) and an LLM turn. They are answered here at once, in the JSON the task asks for, from the
 * chat history it carries; no question is asked.
 */
export function chatUiTaskAnswer(body: Pick<ChatCompletionRequest, 'messages'>): string | null {
  const last = body.messages.filter((message) => message.role === 'user').at(-1)
  const text = last ? textOf(last) : ''
  if (!/^\s*###\s*Task:/i.test(text)) return null
  const task = /###\s*Task:\s*([\s\S]*?)(?:\n###|$)/i.exec(text)?.[1] ?? ''
  if (/\btitle\b/i.test(task)) return JSON.stringify({ title: titleFrom(text) })
  if (/\btags?\b/i.test(task)) return JSON.stringify({ tags: [] })
  if (/follow[- ]?up/i.test(task)) return JSON.stringify({ follow_ups: [] })
  if (/quer(y|ies)/i.test(task)) return JSON.stringify({ queries: [] })
  return ''
}

/** Words a title may hold: the chat's first question, cut short. */
const TITLE_CHARS = 40

/** The chat's first question, from the task's `<chat_history>` (`USER: …` lines). */
function titleFrom(task: string): string {
  const history = /<chat_history>([\s\S]*?)<\/chat_history>/i.exec(task)?.[1] ?? ''
  const first = /^\s*USER:\s*(.+)$/im.exec(history)?.[1]?.trim() ?? ''
  const chars = [...first]
  return chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS).join('')}…` : first
}

/** The task's answer as OpenAI's completion, or its stream of chunks. */
export function taskCompletion(base: { id: string; created: number; model: string }, content: string) {
  return {
    ...base,
    object: 'chat.completion' as const,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  }
}

export async function streamTask(
  stream: SSEStreamingApi,
  base: { id: string; created: number; model: string },
  content: string,
) {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    stream.writeSSE({
      data: JSON.stringify({
        ...base,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      }),
    })
  await chunk({ role: 'assistant', content: '' }, null)
  if (content) await chunk({ content }, null)
  await chunk({}, 'stop')
  await stream.writeSSE({ data: '[DONE]' })
}
