import { defineFragment } from '../define-config.ts'
import { oneOf } from '../env-values.ts'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export const log = defineFragment({
  shape: {
    // pino level; "debug" shows every job transition.
    LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
  },
  read: (env): { level: LogLevel } => ({ level: env.LOG_LEVEL }),
})
