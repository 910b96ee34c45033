import { z } from 'zod'

// Environment values arrive as strings (or are absent). These helpers turn them into typed values
// with messages that say what was expected and what was given, so a bad variable is obvious.

const quote = (value: string) => JSON.stringify(value)

interface RangeOptions {
  min?: number
  max?: number
}

function numeric(kind: 'integer' | 'number', fallback: number, range: RangeOptions) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return fallback
      const value = Number(raw)
      if (!Number.isFinite(value) || (kind === 'integer' && !Number.isInteger(value))) {
        ctx.addIssue({
          code: 'custom',
          message: `must be ${kind === 'integer' ? 'an integer' : 'a number'}, got ${quote(raw)}`,
        })
        return z.NEVER
      }
      if (range.min !== undefined && value < range.min) {
        ctx.addIssue({ code: 'custom', message: `must be at least ${range.min}, got ${raw}` })
        return z.NEVER
      }
      if (range.max !== undefined && value > range.max) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${range.max}, got ${raw}` })
        return z.NEVER
      }
      return value
    })
}

export const integer = (fallback: number, range: RangeOptions = {}) => numeric('integer', fallback, range)
/** An integer, or undefined when unset: another variable (or a rule) decides then. */
export const optionalInteger = (range: RangeOptions = {}) =>
  z
    .string()
    .optional()
    .transform((raw) => (raw === undefined || raw.trim() === '' ? undefined : raw))
    .pipe(numeric('integer', Number.NaN, range).optional())
export const decimal = (fallback: number, range: RangeOptions = {}) => numeric('number', fallback, range)

const TRUE = new Set(['true', '1'])
const FALSE = new Set(['false', '0'])

/** Only true/false/1/0: "yes" or "off" are more likely typos than intent. */
export const boolean = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return fallback
      const value = raw.trim().toLowerCase()
      if (TRUE.has(value)) return true
      if (FALSE.has(value)) return false
      ctx.addIssue({ code: 'custom', message: `must be true, false, 1 or 0, got ${quote(raw)}` })
      return z.NEVER
    })

export const text = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((raw) => (raw === undefined || raw.trim() === '' ? fallback : raw.trim()))

export const optionalText = () =>
  z
    .string()
    .optional()
    .transform((raw) => (raw === undefined || raw.trim() === '' ? undefined : raw.trim()))

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): T[number] => {
      if (raw === undefined || raw.trim() === '') return fallback
      const value = raw.trim()
      if ((values as readonly string[]).includes(value)) return value as T[number]
      ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}, got ${quote(raw)}` })
      return z.NEVER
    })

const URL_PROTOCOLS = (protocols: string[]) => (raw: string) => {
  try {
    return protocols.includes(new URL(raw).protocol)
  } catch {
    return false
  }
}

export const optionalUrl = (protocols: string[]) =>
  optionalText().refine((raw) => raw === undefined || URL_PROTOCOLS(protocols)(raw), {
    message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  })

/** Comma-separated list; empty entries dropped. */
export const list = () =>
  z
    .string()
    .optional()
    .transform((raw) =>
      (raw ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    )
