export { createLogger, type Logger, type LoggerOptions } from './create-logger.ts'
export { currentLogContext, type LogContext, withLogContext } from './log-context.ts'
