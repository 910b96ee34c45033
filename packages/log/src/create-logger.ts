import { type DestinationStream, type Logger, pino } from 'pino'
import pretty from 'pino-pretty'
import { currentLogContext } from './log-context.ts'
import { PRETTY_OPTIONS } from './log-lines.ts'

export type { Logger }

export type LogFormat = 'auto' | 'pretty' | 'json'

export interface LoggerOptions {
  /** The process or component, e.g. "gateway" or "worker-parse". */
  name: string
  level?: string
  /** pretty: coloured lines for people; json: for machines; auto (default): pretty on a terminal. */
  format?: LogFormat
  /** Where lines go; stdout by default (the supervisor formats and forwards it). */
  destination?: DestinationStream
}

/** A pino logger whose every line carries the request or job id of the work in progress. */
export function createLogger({ name, level = 'info', format = 'json', destination }: LoggerOptions): Logger {
  const terminal = !destination && process.stdout.isTTY === true
  const prettyLines = format === 'pretty' || (format === 'auto' && terminal)
  return pino(
    {
      name,
      level,
      // The ids come from AsyncLocalStorage, so code deep inside a handler need not pass a child logger.
      mixin: () => ({ ...currentLogContext() }),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    prettyLines
      ? pretty({ ...PRETTY_OPTIONS, colorize: terminal, destination: destination ?? 1, sync: true })
      : destination,
  )
}
