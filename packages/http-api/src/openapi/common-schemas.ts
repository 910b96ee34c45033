import { z } from '@hono/zod-openapi'
import { errorSchema } from '@rag/api-contract'

export { errorSchema }

/** A response whose body is JSON of `schema`, as the OpenAPI document declares it. */
export const jsonResponse = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { 'application/json': { schema } },
})

export const errorResponse = (description: string) => jsonResponse(description, errorSchema)

/** Any route, open ones included: the address sent too many wrong keys (see `Retry-After`). */
export const keyAttemptErrors = {
  429: errorResponse('Too many wrong API keys from this address, or over a rate limit; see Retry-After'),
} as const

/** The error responses most routes share. */
export const commonErrors = {
  400: errorResponse('Invalid input; the message names the field'),
  401: errorResponse('An API key is required (when API_KEY is set)'),
  403: errorResponse(
    "The key's role does not allow this route (a reader deleting, an editor managing keys), or a browser request from another site",
  ),
  ...keyAttemptErrors,
  503: errorResponse(
    'The database or the queue is unavailable for a moment (a restart): send the request again after Retry-After',
  ),
} as const

/** Routes that change something: a browser page of another site may not call them (CSRF). */
export const crossSiteErrors = {
  403: errorResponse(
    "The key's role does not allow this route, or a browser request from another site (not this origin or CORS_ORIGINS)",
  ),
} as const

/** A path parameter that must be a UUID (documents and questions are named by one). */
export const uuidParam = (name: string, what: string) =>
  z.uuid('expected a UUID').openapi({
    param: { name, in: 'path' },
    description: what,
    example: '6f1c0a52-3a5e-4b7f-9d3e-0c6a1e2b7f10',
  })

/** A required JSON request body of `schema`. */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({
  required: true,
  content: { 'application/json': { schema } },
})

/** The errors of a route that changes something from a JSON body. */
export const jsonChangeErrors = {
  ...commonErrors,
  ...crossSiteErrors,
  415: errorResponse('The body is not application/json'),
} as const

/**
 * A route's errors with the 404 of what it names (`notFound` describes it): a route that reads,
 * one that changes without a body (the cross-site check too), one that takes a JSON body.
 */
export const readErrors = (notFound: string) => ({ ...commonErrors, 404: errorResponse(notFound) }) as const
export const writeErrors = (notFound: string) =>
  ({ ...commonErrors, ...crossSiteErrors, 404: errorResponse(notFound) }) as const
export const jsonWriteErrors = (notFound: string) =>
  ({ ...jsonChangeErrors, 404: errorResponse(notFound) }) as const

/** A route whose request names a collection: one that does not exist, or is not the key's, is 404 alike. */
export const unknownCollectionError = {
  404: errorResponse('No such collection among those this key may read (a misspelt name, or another team’s)'),
} as const
