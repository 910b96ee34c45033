import { parentPort, workerData } from 'node:worker_threads'
import type { ThreadMessage } from './model-thread.ts'

/** What a model thread's module gives serveModelThread: how to load, then how to answer. */
export interface ModelThreadLogger {
  info(fields: Record<string, unknown>, message: string): void
  warn(fields: Record<string, unknown>, message: string): void
}

const post = (message: ThreadMessage) => parentPort?.postMessage(message)

/** Logs of a model thread go to its owner's logger (a thread has no pino of its own). */
export const threadLogger: ModelThreadLogger = {
  info: (fields, message) => post({ type: 'log', level: 'info', fields, message }),
  warn: (fields, message) => post({ type: 'log', level: 'warn', fields, message }),
}

/**
 * The thread side: loads the model from `workerData.init`, says ready (or why not), then answers
 * each request in turn. Requests run one at a time, as the model's session would anyway.
 */
export async function serveModelThread<Init, Request, Result>(
  load: (init: Init, logger: ModelThreadLogger) => Promise<(request: Request) => Promise<Result>>,
): Promise<void> {
  let answer: (request: Request) => Promise<Result>
  try {
    answer = await load(workerData.init as Init, threadLogger)
  } catch (error) {
    post({ type: 'error', id: null, message: error instanceof Error ? error.message : String(error) })
    return
  }
  let queue = Promise.resolve()
  parentPort?.on('message', ({ id, request }: { id: number; request: Request }) => {
    queue = queue.then(async () => {
      try {
        post({ type: 'result', id, value: await answer(request) })
      } catch (error) {
        post({ type: 'error', id, message: error instanceof Error ? error.message : String(error) })
      }
    })
  })
  post({ type: 'ready' })
}
