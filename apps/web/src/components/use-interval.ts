import { useEffect, useRef } from 'preact/hooks'

/** Calls `tick` now and then every `ms` (skipping a beat while the previous call still runs). */
export function useInterval(tick: () => Promise<void>, ms: number) {
  const latest = useRef(tick)
  latest.current = tick
  useEffect(() => {
    let running = false
    const run = () => {
      if (running) return
      running = true
      latest.current().finally(() => {
        running = false
      })
    }
    run()
    const timer = setInterval(run, ms)
    return () => clearInterval(timer)
  }, [ms])
}
