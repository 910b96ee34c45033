const OPEN = '<think>'
const CLOSE = '</think>'

/**
 * Text held back at the start (when asked to: a reasoning model) while it may be thinking whose
 * opening tag the chat template wrote (the model then emits only `</think>`): past this much
 * without either tag it is taken as answer.
 */
export const UNDECIDED_CHARS = 2000

/** Models whose chat templates may open the thinking block themselves (only `</think>` comes). */
export const REASONING_MODEL =
  /qwen3|qwq|deepseek[-_]?r1|r1[-_]distill|think|reason|gpt[-_]?oss|magistral|phi-?4-reasoning/i

/**
 * Drops a reasoning model's thinking from an answer as it streams: `<think>…</think>` as Qwen3,
 * DeepSeek-R1 and QwQ write it into the text, and a block the template opened (only `</think>`
 * comes: everything before it was thinking). Text inside is never passed on, and a tag split over
 * two pieces is held until it can be told apart from ordinary text. With `holdStart` (a reasoning
 * model) the start is held until it is told apart too (up to UNDECIDED_CHARS); without, it
 * streams at once. A closing tag after answer was passed on restarts the answer (`restarts`
 * counts them): what was passed on was thinking, and `answer` holds the answer without it.
 */
export class ThinkingFilter {
  private held = ''
  private thinking = false
  private undecided: boolean
  /** The answer so far, without thinking (what a streamed answer should be kept as). */
  answer = ''
  /** How often a late `</think>` showed that text already passed on was thinking. */
  restarts = 0

  constructor({ holdStart = false }: { holdStart?: boolean } = {}) {
    this.undecided = holdStart
  }

  /** The part of this piece (with what was held) that is answer. */
  push(text: string): string {
    this.held += text
    let out = ''
    if (this.undecided) {
      const close = this.held.indexOf(CLOSE)
      const open = this.held.indexOf(OPEN)
      if (close >= 0 && (open < 0 || close < open)) {
        // The template opened the block: all before the close was thinking.
        this.held = this.held.slice(close + CLOSE.length)
        this.undecided = false
      } else if (open >= 0 || this.held.length > UNDECIDED_CHARS) this.undecided = false
      else return ''
    }
    for (;;) {
      const tag = this.thinking ? CLOSE : OPEN
      const at = this.held.indexOf(tag)
      const strayClose = this.thinking ? -1 : this.held.indexOf(CLOSE)
      if (strayClose >= 0 && (at < 0 || strayClose < at)) {
        // A close with no open after answer was passed on: that was thinking too.
        this.held = this.held.slice(strayClose + CLOSE.length)
        this.answer = ''
        out = ''
        this.restarts += 1
        continue
      }
      if (at >= 0) {
        if (!this.thinking) out += this.held.slice(0, at)
        this.held = this.held.slice(at + tag.length)
        this.thinking = !this.thinking
        continue
      }
      // Keep back what could be the start of a tag.
      const keep = Math.max(
        partialTagLength(this.held, tag),
        this.thinking ? 0 : partialTagLength(this.held, CLOSE),
      )
      if (!this.thinking) out += this.held.slice(0, this.held.length - keep)
      this.held = this.held.slice(this.held.length - keep)
      this.answer += out
      return out
    }
  }

  /** The end of the answer: what was held back, unless the model was still thinking. */
  end(): string {
    const rest = this.thinking ? '' : this.held
    this.held = ''
    this.answer += rest
    return rest
  }
}

/** Length of the longest end of text that begins tag. */
function partialTagLength(text: string, tag: string): number {
  for (let length = Math.min(text.length, tag.length - 1); length > 0; length--)
    if (tag.startsWith(text.slice(text.length - length))) return length
  return 0
}

/** A text with its thinking removed (either form), and the blank lines thinking leaves before it. */
export function withoutThinking(text: string): string {
  const filter = new ThinkingFilter({ holdStart: true })
  filter.push(text)
  filter.end()
  return filter.answer.trimStart()
}
