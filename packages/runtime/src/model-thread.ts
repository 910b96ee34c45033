import { Worker } from 'node:worker_threads'
import type { Logger } from '@rag/log'

/** Messages a model thread sends its owner. */
export type ThreadMessage =
  | { type: 'ready' }
  | { type: 'log'; level: 'info' | 'warn'; fields: Record<string, unknown>; message: string }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number | null; message: string }

export interface ModelThread<Request, Result> {
  call(request: Request): Promise<Result>
  close(): Promise<void>
}

const BOOT = new URL('./model-thread-boot.mjs', import.meta.url)

/**
 * Runs a model in a worker thread of its own: onnxruntime-node's inference is synchronous, so on
 * the main thread one 10-second rerank would freeze the job lock renewals, heartbeats and
 * shutdown of the whole worker process. `entry` is a module that calls serveModelThread; `init`
 * (plain data) tells it what to load. Resolves once the model is loaded; rejects with its error.
 */
export async function startModelThread<Request, Result>(
  entry: URL,
  init: unknown,
  logger: Logger,
): Promise<ModelThread<Request, Result>> {
  const worker = new Worker(BOOT, { workerData: { entry: entry.href, init } })
  const pending = new Map<number, { resolve: (value: Result) => void; reject: (error: Error) => void }>()
  let next = 0
  let failure: Error | undefined
  let holdWhileBusy = () => {}
  const failAll = (error: Error) => {
    failure ??= error
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
  }
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'ready') resolve()
      else if (message.type === 'log') logger[message.level](message.fields, message.message)
      else if (message.type === 'error' && message.id === null) reject(new Error(message.message))
      else if (message.type === 'error' || message.type === 'result') {
        const call = pending.get(message.id ?? -1)
        pending.delete(message.id ?? -1)
        if (message.type === 'result') call?.resolve(message.value as Result)
        else call?.reject(new Error(message.message))
        holdWhileBusy()
      }
    })
    worker.on('error', (error) => {
      reject(error)
      failAll(error)
    })
    worker.on('exit', (code) => {
      const error = new Error(`the model thread stopped (exit code ${code})`)
      reject(error)
      failAll(error)
    })
  })
  await ready.catch(async (error: unknown) => {
    await worker.terminate()
    throw error
  })
  // An idle thread does not keep the process alive (workers exit when their queues close); a
  // thread working on a call does, or a process awaiting only inference would exit mid-call.
  holdWhileBusy = () => (pending.size > 0 ? worker.ref() : worker.unref())
  holdWhileBusy()
  return {
    call(request) {
      if (failure) return Promise.reject(failure)
      const id = next++
      return new Promise<Result>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        holdWhileBusy()
        worker.postMessage({ id, request })
      })
    },
    async close() {
      failAll(new Error('the model thread was closed'))
      await worker.terminate()
    },
  }
}
