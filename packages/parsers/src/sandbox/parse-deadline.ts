/**
 * The deadline of one parse. It counts from the start, or from the last page read by OCR (seconds
 * each: a long scan is legitimately slow), so a parser running away on a file is stopped either
 * way; however many pages report progress, never past `budgets` deadlines in all.
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
  const cap = Date.now() + timeoutMs * budgets
  let timer = setTimeout(onExpire, timeoutMs)
  return {
    /** A page was read: the deadline starts again (within the cap). */
    progressed() {
      clearTimeout(timer)
      timer = setTimeout(onExpire, Math.max(0, Math.min(timeoutMs, cap - Date.now())))
    },
    clear() {
      clearTimeout(timer)
    },
  }
}
