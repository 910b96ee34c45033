/**
 * An answer relayed to a client that cannot be told to drop what it has (an OpenAI stream only
 * appends). A retried LLM job begins the answer again: while the new one repeats what was sent,
 * nothing is sent; once it goes past, the rest is; when it says something else, the relay has
 * diverged and the stream must end with an error rather than splice two answers into one.
 */
export class ForwardOnlyAnswer {
  /** What the client has. */
  sent = ''
  /** The answer as currently written (since the last restart). */
  private current = ''

  restart(): void {
    this.current = ''
  }

  /** More of the answer: what to send now ('' for nothing), or null when it diverged. */
  append(text: string): string | null {
    this.current += text
    return this.advance()
  }

  /** The finished answer: what remains to send, or null when it is not what was sent. */
  finish(answer: string): string | null {
    this.current = answer
    return this.advance()
  }

  private advance(): string | null {
    if (this.current.length <= this.sent.length) return this.sent.startsWith(this.current) ? '' : null
    if (!this.current.startsWith(this.sent)) return null
    const rest = this.current.slice(this.sent.length)
    this.sent = this.current
    return rest
  }
}
