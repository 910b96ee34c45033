import type { ContentfulStatusCode } from 'hono/utils/http-status'

/** The one error type routes throw; onError turns it into `{error: {message, ...details}}`. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'HttpError'
  }
}
