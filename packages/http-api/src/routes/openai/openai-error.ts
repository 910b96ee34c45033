import type { Hook } from '@hono/zod-openapi'
import { z } from '@hono/zod-openapi'
import { HttpError } from '../../http-error.ts'

/** An error as OpenAI's API words it: `{error: {message, type, param, code}}` (the SDKs read these). */
export function openAiError(
  status: 400 | 404 | 413 | 500 | 503,
  message: string,
  {
    type = 'invalid_request_error',
    param = null,
    code = null,
  }: { type?: string; param?: string | null; code?: string | null } = {},
): HttpError {
  return new HttpError(status, message, { type, param, code })
}

export const openAiErrorSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .openapi('OpenAiError')

export const openAiErrorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: openAiErrorSchema } },
})

/** The body's first problem as OpenAI says it: 400, invalid_request_error, the field as `param`. */
// biome-ignore lint/suspicious/noExplicitAny: the hook is shared by routes of every input type
export const openAiValidationHook: Hook<any, any, any, any> = (result) => {
  if (result.success) return
  const issue = result.error.issues[0]
  const param = issue?.path.join('.') || 'body'
  throw openAiError(400, `invalid ${param}: ${issue?.message ?? 'invalid'}`, { param })
}
