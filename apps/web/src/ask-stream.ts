import type { Question } from './api.ts'

export interface AskStreamHandlers {
  status(status: string): void
  /** The extractive answer, at once, while the LLM writes its own (which replaces it token by token). */
  provisional?(question: Question): void
  /** Its place in the LLM's line (null: no longer waiting). */
  queue?(queue: Question['queue']): void
  /** More of the answer as the LLM writes it. */
  token(text: string): void
  /** The answer starts over (a retry began it again): drop what was shown. */
  restart(): void
  done(question: Question): void
  error(message: string): void
}

/** The part of EventSource this uses (the browser's own in the page; a stand-in in unit tests). */
export interface EventStream {
  readonly readyState: number
  addEventListener(type: string, listener: (event: Event) => void): void
  close(): void
}

const CLOSED = 2

/**
 * Follows GET /ask/:id/events (EventSource sends the key cookie on its own); returns a function that
 * stops following. When the connection drops, the browser reconnects with `Last-Event-ID` and the
 * server sends only what is missing (or `restart` and the answer anew), so nothing is reset here.
 */
export function followAnswer(
  id: string,
  handlers: AskStreamHandlers,
  open: (url: string) => EventStream = (url) => new EventSource(url),
): () => void {
  const source = open(`/ask/${id}/events`)
  const data = (event: Event) => JSON.parse((event as MessageEvent<string>).data) as Record<string, unknown>
  source.addEventListener('status', (event) => handlers.status(String(data(event).status)))
  source.addEventListener('token', (event) => handlers.token(String(data(event).text)))
  source.addEventListener('restart', () => handlers.restart())
  source.addEventListener('provisional', (event) =>
    handlers.provisional?.(data(event) as unknown as Question),
  )
  source.addEventListener('queue', (event) =>
    handlers.queue?.((data(event).queue ?? null) as Question['queue']),
  )
  source.addEventListener('done', (event) => {
    source.close()
    handlers.done(data(event) as unknown as Question)
  })
  source.addEventListener('error', () => {
    // CLOSED: the server refused the stream (the question expired, the key was dropped); while
    // CONNECTING the browser is retrying by itself.
    if (source.readyState === CLOSED) handlers.error('the answer stream was closed')
  })
  return () => source.close()
}
