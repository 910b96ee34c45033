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
  /**
   * The model if it is loaded, else null at once — starting its load in the background (when no
   * load runs and none failed lately): what a request uses that must not wait for a load or a
   * download (a search answers by keyword meanwhile, and says so).
   */
  ready(): T | null
  state(): ModelState
}

/**
 * Loads a model once per process. A failure (no network, bad name) is retried only after
 * retryAfterMs, so a missing model never becomes a crash loop; it is told once per process, at
 * warn, with the fix (the same failure again only at debug), so it never becomes a log flood.
 */
export function createModelProvider<T>({
  name,
  setting,
  load,
  logger,
  retryAfterMs = 60_000,
}: {
  /** null: the model is switched off in config. */
  name: string | null
  /** The variable that names the model (EMBEDDING_MODEL, …), for the message saying how to fix it. */
  setting: string
  load: () => Promise<T>
  logger: Logger
  retryAfterMs?: number
}): ModelProvider<T> {
  let model: T | undefined
  let loading: Promise<T | null> | undefined
  let state: ModelState = name ? { state: 'loading' } : { state: 'disabled' }
  let retryAt = 0
  let toldError: string | undefined

  const provider: ModelProvider<T> = {
    state: () => state,
    ready() {
      if (model !== undefined) return model
      void provider.get()
      return null
    },
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
          const fix = `run \`pnpm rag models pull\` where the model hub (or MODEL_ENDPOINT) is reachable, or place the files in MODELS_DIR as docs/models.md says, or set ${setting}=none to run without it`
          if (message !== toldError)
            logger.warn(
              { model: name, setting, retryInMs: retryAfterMs },
              `${setting} ${name} is unavailable, so this process continues without it: ${message}. To fix: ${fix}`,
            )
          else logger.debug({ model: name, cause: message }, 'model still unavailable')
          toldError = message
          return null
        } finally {
          loading = undefined
        }
      })()
      return loading
    },
  }
  return provider
}
