import { type DestinationStream, type Logger, pino } from 'pino'
import { currentLogContext } from './log-context.ts'

export type { Logger }

export interface LoggerOptions {
  /** The process or component, e.g. "gateway" or "worker-parse". */
  name: string
  level?: string
  /** Where lines go; stdout by default (the supervisor prefixes and forwards it). */
  destination?: DestinationStream
}

/** A pino logger whose every line carries the request or job id of the work in progress. */
export function createLogger({ name, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      name,
      level,
      // The ids come from AsyncLocalStorage, so code deep inside a handler need not pass a child logger.
      mixin: () => ({ ...currentLogContext() }),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  )
}
