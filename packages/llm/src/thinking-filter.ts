const OPEN = '<think>'
const CLOSE = '</think>'

/**
 * Drops a reasoning model's thinking (`<think>…</think>`, as Qwen3, DeepSeek-R1 and QwQ write it
 * into the text) from an answer as it streams: text inside is never passed on, and a tag split
 * over two pieces is held until it can be told apart from ordinary text.
 */
export class ThinkingFilter {
  private held = ''
  private thinking = false

  /** The part of this piece (with what was held) that is answer. */
  push(text: string): string {
    this.held += text
    let out = ''
    for (;;) {
      const tag = this.thinking ? CLOSE : OPEN
      const at = this.held.indexOf(tag)
      if (at >= 0) {
        if (!this.thinking) out += this.held.slice(0, at)
        this.held = this.held.slice(at + tag.length)
        this.thinking = !this.thinking
        continue
      }
      // Keep back what could be the start of the tag.
      const keep = partialTagLength(this.held, tag)
      if (!this.thinking) out += this.held.slice(0, this.held.length - keep)
      this.held = this.held.slice(this.held.length - keep)
      return out
    }
  }

  /** The end of the answer: what was held back, unless the model was still thinking. */
  end(): string {
    const rest = this.thinking ? '' : this.held
    this.held = ''
    return rest
  }
}

/** Length of the longest end of text that begins tag. */
function partialTagLength(text: string, tag: string): number {
  for (let length = Math.min(text.length, tag.length - 1); length > 0; length--)
    if (tag.startsWith(text.slice(text.length - length))) return length
  return 0
}

/** An answer with its thinking removed, and the blank lines thinking leaves before it. */
export function withoutThinking(text: string): string {
  const filter = new ThinkingFilter()
  return (filter.push(text) + filter.end()).trimStart()
}
