import { AsyncLocalStorage } from 'node:async_hooks'

/** Ids that identify the unit of work a log line belongs to. */
export interface LogContext {
  reqId?: string
  jobId?: string
  queue?: string
  documentId?: string
  questionId?: string
}

const storage = new AsyncLocalStorage<LogContext>()

/** Runs fn with ids that every log line written inside it (at any depth, across awaits) carries. */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, fn)
}

export function currentLogContext(): LogContext {
  return storage.getStore() ?? {}
}
