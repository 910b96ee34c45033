import type { Question } from './api.ts'

export interface AskStreamHandlers {
  status(status: string): void
  /** More of the answer as the LLM writes it. */
  token(text: string): void
  /** A retry began the answer again: drop what was shown. */
  restart(): void
  done(question: Question): void
  error(message: string): void
}

/**
 * Follows GET /ask/:id/events (EventSource sends the key cookie on its own); returns a function that
 * stops following. A dropped stream is reopened by the browser and the server resends the partial answer.
 */
export function followAnswer(id: string, handlers: AskStreamHandlers): () => void {
  const source = new EventSource(`/ask/${id}/events`)
  const data = (event: Event) => JSON.parse((event as MessageEvent<string>).data) as Record<string, unknown>
  source.addEventListener('status', (event) => handlers.status(String(data(event).status)))
  source.addEventListener('token', (event) => handlers.token(String(data(event).text)))
  source.addEventListener('restart', () => handlers.restart())
  source.addEventListener('done', (event) => {
    source.close()
    handlers.done(data(event) as unknown as Question)
  })
  source.onerror = () => {
    // CLOSED: the server refused the stream (e.g. the question expired); CONNECTING: retrying by itself.
    if (source.readyState === EventSource.CLOSED) handlers.error('the answer stream was closed')
  }
  return () => source.close()
}
