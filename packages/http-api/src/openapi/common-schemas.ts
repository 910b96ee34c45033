import { z } from '@hono/zod-openapi'
import { errorSchema } from '@rag/api-contract'

export { errorSchema }

export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorSchema } },
})

/** The error responses most routes share. */
export const commonErrors = {
  400: errorResponse('Invalid input; the message names the field'),
  401: errorResponse('An API key is required (when API_KEY is set)'),
} as const

/** A path parameter that must be a UUID (documents and questions are named by one). */
export const uuidParam = (name: string, what: string) =>
  z.uuid('expected a UUID').openapi({
    param: { name, in: 'path' },
    description: what,
    example: '6f1c0a52-3a5e-4b7f-9d3e-0c6a1e2b7f10',
  })
