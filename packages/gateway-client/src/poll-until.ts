export interface WaitOptions<T> {
  /** Told every value polled (a progress line, a progress bar). */
  onPoll?: (value: T) => void | Promise<void>
  /** Stops waiting: the last value polled is returned. */
  signal?: AbortSignal
  /** Gives up after this long: the last value polled is returned (check its status). */
  timeoutMs?: number
}

/**
 * Polls until `finished` says so, the time is up or the signal aborts, and returns the last value:
 * every 100 ms at first, slowing to once a second, so a quick answer is seen at once and a long
 * one costs the gateway little.
 */
export async function pollUntil<T>(
  poll: () => Promise<T>,
  finished: (value: T) => boolean,
  { onPoll, signal, timeoutMs = Number.POSITIVE_INFINITY }: WaitOptions<T> = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (let wait = 100; ; wait = Math.min(wait * 1.5, 1000)) {
    const value = await poll()
    await onPoll?.(value)
    if (finished(value) || Date.now() >= deadline || signal?.aborted) return value
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(wait, Math.max(0, deadline - Date.now())))
      function done() {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      signal?.addEventListener('abort', done, { once: true })
    })
  }
}
