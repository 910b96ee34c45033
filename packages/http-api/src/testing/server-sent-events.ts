/** One event of a text/event-stream, its data parsed as JSON (the gateway sends only JSON). */
export interface StreamEvent {
  event: string
  data: Record<string, unknown>
}

/** The events (JSON data) of an event-stream body as they arrive, until it ends or the caller stops reading. */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array> | null,
): AsyncGenerator<StreamEvent> {
  const reader = body?.getReader()
  if (!reader) return
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true })
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = /^event: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        // An unnamed event is a "message" (as an OpenAI stream sends them); its closing [DONE] is no JSON.
        if (data && data !== '[DONE]')
          yield { event: event ?? 'message', data: JSON.parse(data) as Record<string, unknown> }
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
}
