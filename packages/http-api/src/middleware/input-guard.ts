import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'

// Characters no name, question, setting or filter of ours holds: C0 controls but tab, newline and
// carriage return (multi-line text: questions, synonym rules), and DEL. NUL in particular reaches
// Postgres as an invalid byte (a 500), and the others hide text from whoever reads it later.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const IN_LINE = /[\u0000-\u001F\u007F]/

/** The first field of `value` (nested objects and arrays, JSON pointers as `a.b.0`) holding a control character. */
export function controlCharacterField(value: unknown, field: string, pattern = IN_TEXT): string | null {
  if (typeof value === 'string') return pattern.test(value) ? field : null
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = controlCharacterField(item, `${field}.${index}`, pattern)
      if (found) return found
    }
    return null
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (pattern.test(key)) return `${field}.${key.replace(IN_LINE, '?')}`
      const found = controlCharacterField(item, `${field}.${key}`, pattern)
      if (found) return found
    }
  }
  return null
}

/** The 400 every control character in a request gets, naming where it was (and its line, in text of several). */
export function controlCharacterError(field: string, value?: unknown): HttpError {
  const text = typeof value === 'string' ? value : ''
  const at = text.search(IN_TEXT)
  const line = at >= 0 && text.includes('\n') ? ` on line ${text.slice(0, at).split('\n').length}` : ''
  return new HttpError(
    400,
    `${field} holds a control character (such as NUL)${line}, which no field here takes`,
    { field },
  )
}

/** The value at a field controlCharacterField named. */
const valueAt = (root: unknown, field: string): unknown =>
  field
    .split('.')
    .slice(1)
    .reduce<unknown>(
      (value, key) =>
        value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
      root,
    )

const decoded = (raw: string) => {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw new HttpError(400, 'the path holds a malformed %-escape', { field: 'path' })
  }
}

/**
 * One guard at the edge, before any route: a control character in the path, a query value or a
 * JSON body answers 400 naming the field, whatever route it was sent to. (Multipart fields and
 * file names are checked as the upload is read: multipart-upload.ts.)
 */
export function inputGuard(): MiddlewareHandler {
  return async function inputGuardMiddleware(c, next) {
    const url = new URL(c.req.url)
    if (IN_LINE.test(decoded(url.pathname))) throw controlCharacterError('path')
    for (const [name, value] of url.searchParams) {
      if (IN_LINE.test(name) || IN_LINE.test(value))
        throw controlCharacterError(`query.${name.replace(IN_LINE, '?')}`)
    }
    if (/^application\/(.+\+)?json\b/i.test(c.req.header('content-type') ?? '')) {
      // A copy: some routes hand the request itself on (MCP's transport reads its body). A body
      // that is not JSON is the route's to refuse.
      const body: unknown = await c.req.raw
        .clone()
        .json()
        .catch(() => undefined)
      const field = controlCharacterField(body, 'body')
      if (field) throw controlCharacterError(field, valueAt(body, field))
    }
    await next()
  }
}
