import { defineFragment } from '../define-config.ts'
import { oneOf } from '../env-values.ts'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

export const log = defineFragment({
  shape: {
    // pino level; "debug" shows every job transition and every HTTP request (info logs only the
    // requests that failed, were refused or took over 2 s).
    LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
    // pretty: coloured lines for people (pino-pretty); json: one JSON object a line (for log tools);
    // auto: pretty on a terminal, JSON otherwise. `pnpm start` formats its processes' lines this way.
    LOG_FORMAT: oneOf(LOG_FORMATS, 'auto'),
  },
  read: (env): { level: LogLevel; format: LogFormat } => ({ level: env.LOG_LEVEL, format: env.LOG_FORMAT }),
})
