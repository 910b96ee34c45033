/**
 * The deadline of one parse. It counts the parser's own time: from the start, or from the last page
 * read by OCR (seconds each: a long scan is legitimately slow), so a parser running away on a file
 * is stopped either way; however many pages report progress, never past `budgets` deadlines in
 * all. While the parse is `paused` — its sections handed over and the parser waiting for the
 * caller to take them (storing a million-row CSV's parts takes the caller minutes) — the clock
 * stops: that time is the pipeline's, not the file's.
 */
export function parseDeadline({
  timeoutMs,
  budgets,
  onExpire,
}: {
  timeoutMs: number
  budgets: number
  onExpire: () => void
}) {
  // Time left until the deadline and until the cap, counted down only while running.
  let left = timeoutMs
  let capLeft = timeoutMs * budgets
  let since = Date.now()
  let running = true
  let timer: NodeJS.Timeout | undefined = setTimeout(onExpire, left)
  const spend = () => {
    const now = Date.now()
    if (running) {
      left -= now - since
      capLeft -= now - since
    }
    since = now
  }
  const arm = () => {
    clearTimeout(timer)
    timer = running ? setTimeout(onExpire, Math.max(0, Math.min(left, capLeft))) : undefined
  }
  return {
    /** A page was read: the deadline starts again (within the cap). */
    progressed() {
      spend()
      left = timeoutMs
      arm()
    },
    /** The parser waits for the caller: its clock stops. */
    pause() {
      spend()
      running = false
      arm()
    },
    /** The parser works again: its clock goes on from where it stopped. */
    resume() {
      spend()
      running = true
      arm()
    },
    clear() {
      clearTimeout(timer)
    },
  }
}
