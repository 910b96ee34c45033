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
 * For the client's waitFor… polls: a progress notification when what is described changes, and
 * every `heartbeatMs` while nothing changes (a client resetting its timeout on progress keeps waiting).
 */
export function reportWhileWaiting<T>(
  report: (message: string) => Promise<void>,
  describe: (value: T) => string,
  heartbeatMs = 5000,
): (value: T) => Promise<void> {
  let told = ''
  let toldAt = 0
  return async (value) => {
    const message = describe(value)
    if (message === told && Date.now() - toldAt < heartbeatMs) return
    told = message
    toldAt = Date.now()
    await report(message)
  }
}
