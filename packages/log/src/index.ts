export { createLogger, type LogFormat, type Logger, type LoggerOptions } from './create-logger.ts'
export { currentLogContext, type LogContext, withLogContext } from './log-context.ts'
export { createLineFormatter, type LineSource } from './log-lines.ts'
