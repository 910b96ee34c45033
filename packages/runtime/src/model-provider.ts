import type { Logger } from '@rag/log'

/** What health reports say about a model: loaded, off on purpose, or failing (and why). */
export type ModelState =
  | { state: 'disabled' }
  | { state: 'loading' }
  | { state: 'ready'; model: string }
  | { state: 'unavailable'; model: string; error: string; retryAt: string }

export interface ModelProvider<T> {
  /** The loaded model, or null when it is off or currently unavailable (callers degrade). */
  get(): Promise<T | null>
  state(): ModelState
}

/**
 * Loads a model once per process. A failure (no network, bad name) is logged once per attempt and
 * retried only after retryAfterMs, so a missing model never becomes a crash loop or a log flood.
 */
export function createModelProvider<T>({
  name,
  load,
  logger,
  retryAfterMs = 60_000,
}: {
  /** null: the model is switched off in config. */
  name: string | null
  load: () => Promise<T>
  logger: Logger
  retryAfterMs?: number
}): ModelProvider<T> {
  let model: T | undefined
  let loading: Promise<T | null> | undefined
  let state: ModelState = name ? { state: 'loading' } : { state: 'disabled' }
  let retryAt = 0

  return {
    state: () => state,
    async get() {
      if (!name) return null
      if (model !== undefined) return model
      if (loading) return loading
      if (Date.now() < retryAt) return null
      loading = (async () => {
        const started = Date.now()
        state = { state: 'loading' }
        try {
          model = await load()
          state = { state: 'ready', model: name }
          logger.info({ model: name, ms: Date.now() - started }, 'model loaded')
          return model
        } catch (error) {
          retryAt = Date.now() + retryAfterMs
          const message = error instanceof Error ? error.message : String(error)
          state = {
            state: 'unavailable',
            model: name,
            error: message,
            retryAt: new Date(retryAt).toISOString(),
          }
          logger.error(
            { model: name, err: message, retryInMs: retryAfterMs },
            'model unavailable; continuing without it',
          )
          return null
        } finally {
          loading = undefined
        }
      })()
      return loading
    },
  }
}
