import type { Hook } from '@hono/zod-openapi'
import { HttpError } from '../http-error.ts'

const WHERE: Record<string, string> = {
  query: 'query parameter ',
  param: 'path parameter ',
  json: '',
  form: '',
}

/**
 * Every declared route validates its input with its zod schema; the first problem becomes a 400
 * that names the field (`invalid query parameter k: …`, `invalid options.mode: …`).
 */
// biome-ignore lint/suspicious/noExplicitAny: the hook is shared by routes of every input type
export const validationHook: Hook<any, any, any, any> = (result) => {
  if (result.success) return
  const issue = result.error.issues[0]
  const keys = issue && 'keys' in issue ? (issue.keys as string[]).join(', ') : ''
  const field = issue?.path.join('.') || keys || 'body'
  const where = WHERE[result.target] ?? ''
  const unknown = keys && issue?.path.length ? ` ${keys} —` : ''
  throw new HttpError(400, `invalid ${where}${field}:${unknown} ${issue?.message ?? 'invalid'}`, { field })
}
