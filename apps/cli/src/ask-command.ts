import type { Writable } from 'node:stream'
import { type AskOptions, isQuestionFinished, shortAnswerLine } from '@rag/api-contract'
import type { ApiQuestion, GatewayClient } from '@rag/gateway-client'

/** Japanese when the question is written in it. */
const languageOfText = (text: string): 'ja' | 'en' =>
  /[\u3040-\u30ff\u4e00-\u9fff]/u.test(text) ? 'ja' : 'en'

export interface AskCommandOptions {
  question: string
  options: AskOptions
  client: GatewayClient
  output: Writable
  /** Status changes go here (stderr), so stdout holds only the answer. */
  progress: Writable
  json?: boolean
  timeoutMs?: number
  /** Aborted (Ctrl-C): the question is cancelled, which frees the LLM, and the command ends. */
  signal?: AbortSignal
}

/**
 * Prints `=== Answer ===` then `=== Sources ===` with one `- sourceId` per line (for a refusal,
 * `=== Looked at, not enough ===` and the passages it looked at).
 */
export function formatAnswer(answer: ApiQuestion): string {
  const lines = ['=== Answer ===', answer.answer ?? '(no answer requested)']
  const short = answer.refused ? undefined : answer.citations[0]
  if (short?.span) lines.push(shortAnswerLine(short.span, short.spanType, languageOfText(answer.question)))
  if (answer.refused) lines.push('(refused: the documents hold no answer above the evidence threshold)')
  if (answer.degraded.length > 0) lines.push(`(degraded: ${answer.degraded.join(', ')})`)
  // A refusal keeps the passages it looked at listed, marked as not enough, so they can be opened.
  lines.push(answer.refused ? '=== Looked at, not enough ===' : '=== Sources ===')
  for (const source of answer.sources)
    lines.push(
      `- ${source.sourceId}${source.lines ? ` (lines ${source.lines.from}–${source.lines.to})` : ''}`,
    )
  return `${lines.join('\n')}\n`
}

/**
 * `pnpm ask "質問"`: posts the question, follows it until done, prints the answer and its sources.
 * Exit code 0 when answered (a refusal is an answer), 1 when the question failed.
 */
export async function runAskCommand({
  question,
  options,
  client,
  output,
  progress,
  json = false,
  timeoutMs = 10 * 60_000,
  signal,
}: AskCommandOptions): Promise<number> {
  const { id } = await client.ask(question, options)
  let lastStatus = ''
  let toldProvisional = false
  let toldQueue = ''
  const answer = await client.waitForAnswer(id, {
    timeoutMs,
    signal,
    onPoll: (current) => {
      if (current.status !== lastStatus) {
        lastStatus = current.status
        progress.write(`${current.status}…\n`)
      }
      const queue = current.queue ? `${current.queue.position}:${current.queue.estimatedWaitSeconds}` : ''
      if (queue && queue !== toldQueue && current.queue)
        progress.write(
          `waiting for the LLM: ${current.queue.position} in line, about ${current.queue.estimatedWaitSeconds} s\n`,
        )
      toldQueue = queue
      // The extractive answer, at once, while the LLM writes its own (stdout gets the final one).
      if (current.provisional && current.answer && !toldProvisional) {
        toldProvisional = true
        progress.write(`(provisional, from the documents while the LLM writes) ${current.answer}\n`)
      }
    },
  })
  if (signal?.aborted && !isQuestionFinished(answer.status)) {
    await client.cancelQuestion(id).catch(() => undefined)
    progress.write(`cancelled (question ${id})\n`)
    return 130
  }
  if (!isQuestionFinished(answer.status)) {
    progress.write(`gave up after ${timeoutMs / 1000} s; the question is still ${answer.status} (id ${id})\n`)
    return 1
  }
  if (json) output.write(`${JSON.stringify(answer, null, 2)}\n`)
  else if (answer.status === 'done') output.write(formatAnswer(answer))
  if (answer.status === 'failed') progress.write(`failed: ${answer.error}\n`)
  return answer.status === 'done' ? 0 : 1
}
