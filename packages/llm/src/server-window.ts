export interface ServerWindow {
  /** Tokens the server really gives one request (prompt and answer). */
  tokens: number
  /** Where that was read, for the log line that says so. */
  source: string
  /** The server serves one model whatever name a request gives (llama-server). */
  anyModelName?: boolean
  /** The server is Ollama (it answered its own API): it takes thinking off by reasoning_effort only. */
  ollama?: boolean
}

/**
 * Ollama's window for a model nobody gave a num_ctx: 2,048 tokens up to 0.5, 4,096 since. Its
 * OpenAI endpoint takes no num_ctx and cuts a longer prompt from the front (the instructions and
 * the best passages) without an error, so when the server does not say, the smaller one is assumed.
 */
export const OLLAMA_DEFAULT_WINDOW = 2048

type Fetch = (url: string, init?: RequestInit) => Promise<Response>

/** Loading a model to read its window: a large one from a slow disk takes a while. */
const MODEL_LOAD_MS = 120_000

/**
 * The window an OpenAI-compatible LLM server runs the model with, where the server says it:
 * llama-server's `/props` (its slot's n_ctx), Ollama's `/api/ps` (a loaded model's context_length)
 * or `/api/show` (a num_ctx parameter; otherwise Ollama's default), vLLM's model list
 * (max_model_len). Null when the server says nothing (LM Studio): then the configured
 * LLM_CONTEXT_SIZE is trusted.
 */
export async function readServerWindow({
  baseUrl,
  model,
  apiKey,
  listed,
  fetch: send = fetch,
}: {
  /** The OpenAI-compatible base, …/v1. */
  baseUrl: string
  model: string
  apiKey?: string
  /** The server's model list entry for the model, when it has one (vLLM puts max_model_len there). */
  listed?: Record<string, unknown>
  fetch?: Fetch
}): Promise<ServerWindow | null> {
  const root = baseUrl.replace(/\/v1\/?$/, '')
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {}
  const json = async (path: string, init: RequestInit = {}, timeoutMs = 5000) => {
    try {
      const response = await send(`${root}${path}`, {
        ...init,
        headers: { ...headers, ...init.headers },
        signal: AbortSignal.timeout(timeoutMs),
      })
      return response.ok ? ((await response.json()) as Record<string, unknown>) : null
    } catch {
      return null
    }
  }
  if (positive(listed?.max_model_len))
    return { tokens: listed.max_model_len, source: 'the model list (max_model_len)' }

  const props = await json('/props')
  const settings = props?.default_generation_settings as { n_ctx?: unknown } | undefined
  if (positive(settings?.n_ctx))
    return { tokens: settings.n_ctx, source: 'llama-server /props (n_ctx)', anyModelName: true }

  const loadedWindow = async () => {
    const running = await json('/api/ps')
    const loaded = (
      running?.models as { name?: string; model?: string; context_length?: unknown }[] | undefined
    )?.find((entry) => sameOllamaModel(entry.name, model) || sameOllamaModel(entry.model, model))
    return {
      ollama: running !== null,
      tokens: positive(loaded?.context_length) ? loaded.context_length : null,
    }
  }
  let loaded = await loadedWindow()
  if (loaded.ollama && loaded.tokens === null) {
    // Not loaded yet: Ollama loads a model for an empty prompt (no answer written), and then says
    // the window it really runs it with — OLLAMA_CONTEXT_LENGTH included, which no API shows.
    await json(
      '/api/generate',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, prompt: '', stream: false }),
      },
      MODEL_LOAD_MS,
    )
    loaded = await loadedWindow()
  }
  if (loaded.tokens !== null)
    return { tokens: loaded.tokens, source: 'Ollama /api/ps (context_length)', ollama: true }

  const shown = await json('/api/show', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model }),
  })
  if (!shown) return null
  const numCtx = /^num_ctx\s+(\d+)/m.exec(String(shown.parameters ?? ''))?.[1]
  return numCtx
    ? { tokens: Number(numCtx), source: "Ollama /api/show (the model's num_ctx)" }
    : {
        tokens: OLLAMA_DEFAULT_WINDOW,
        source:
          "assumed: Ollama's default window (the model could not be loaded to ask, and sets no num_ctx)",
      }
}

const positive = (value: unknown): value is number => typeof value === 'number' && value > 0

/** Ollama names a model `name:tag`, `:latest` when no tag is given. */
export const sameOllamaModel = (listed: string | undefined, wanted: string) =>
  listed !== undefined && (listed === wanted || listed === `${wanted}:latest`)
