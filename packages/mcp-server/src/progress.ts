import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js'

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>

/**
 * Progress notifications for a client that asked for them (a progressToken in the call): each
 * one counts up, as the protocol requires, and says what is happening. Clients that reset their
 * request timeout on progress then wait through a slow CPU answer instead of giving up at 60 s.
 */
export function progressReporter(extra: ToolExtra): (message: string, total?: number) => Promise<void> {
  const token = extra._meta?.progressToken
  let progress = 0
  return async (message, total) => {
    if (token === undefined) return
    progress += 1
    await extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...(total === undefined ? {} : { total }), message },
      })
      .catch(() => undefined)
  }
}

/**
 * Polls until `done`, telling progress on every change and every `heartbeatMs` while nothing
 * changes; gives the last value when the time is up or the call is cancelled.
 */
export async function follow<T>({
  poll,
  done,
  describe,
  report,
  signal,
  timeoutMs,
  heartbeatMs = 5000,
}: {
  poll: () => Promise<T>
  done: (value: T) => boolean
  describe: (value: T) => string
  report: (message: string) => Promise<void>
  signal: AbortSignal
  timeoutMs: number
  heartbeatMs?: number
}): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let told = ''
  let toldAt = 0
  for (let wait = 100; ; wait = Math.min(wait * 1.5, 1000)) {
    const value = await poll()
    const message = describe(value)
    if (message !== told || Date.now() - toldAt >= heartbeatMs) {
      await report(message)
      told = message
      toldAt = Date.now()
    }
    if (done(value) || Date.now() > deadline || signal.aborted) return value
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}
