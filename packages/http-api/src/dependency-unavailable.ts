/** Postgres codes of a server that is not there right now (shutting down, starting, too many clients). */
const PG_UNAVAILABLE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
])
/** Socket errors of a service that cannot be reached. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
])

const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|the database system is (starting up|shutting down|in recovery mode)/i
const REDIS_MESSAGES =
  /Connection is closed|Stream isn't writeable|Reached the max retries per request limit/i

/**
 * What a failed request was waiting on when that is a service being away (Postgres restarting,
 * Redis unreachable), not a fault of the request or of ours: such a request is worth sending again
 * in a moment (503 with Retry-After), which a 500 does not say. Null for any other error.
 */
export function unavailableDependency(error: unknown): string | null {
  for (const candidate of causes(error)) {
    const { code, message, name } = candidate as { code?: unknown; message?: unknown; name?: unknown }
    const text = typeof message === 'string' ? message : ''
    if (name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test(text)) return 'the queue (Redis)'
    if ((typeof code === 'string' && PG_UNAVAILABLE.has(code)) || PG_MESSAGES.test(text))
      return 'the database'
    if (typeof code === 'string' && UNREACHABLE.has(code)) return 'the database or the queue'
  }
  return null
}

/** The error, what it wraps (cause) and what it aggregates (a connection tried on several addresses). */
function* causes(error: unknown, depth = 0): Generator<object> {
  if (!error || typeof error !== 'object' || depth > 4) return
  yield error
  const { cause, errors } = error as { cause?: unknown; errors?: unknown }
  yield* causes(cause, depth + 1)
  if (Array.isArray(errors)) for (const each of errors) yield* causes(each, depth + 1)
}
