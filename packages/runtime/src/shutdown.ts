import type { Logger } from '@rag/log'

type Closer = () => Promise<unknown> | unknown

export interface Shutdown {
  /** Registers a cleanup step; steps run in reverse order of registration (last opened, first closed). */
  add(name: string, close: Closer): void
  /** Runs every step once, even when one fails; later calls return the same promise. */
  close(reason: string): Promise<void>
  /** Closes on SIGTERM/SIGINT (or the supervisor's death), then exits; a second signal or the deadline exits at once. */
  installSignalHandlers(options?: { exit?: (code: number) => void }): void
  readonly closing: boolean
}

export function createShutdown({
  logger,
  timeoutMs = 20000,
}: {
  logger: Logger
  timeoutMs?: number
}): Shutdown {
  const steps: { name: string; close: Closer }[] = []
  let closing: Promise<void> | undefined

  const close = (reason: string) => {
    closing ??= (async () => {
      logger.info({ reason }, 'shutting down')
      for (const step of [...steps].reverse()) {
        try {
          await step.close()
        } catch (error) {
          logger.error({ err: error, step: step.name }, 'cleanup step failed')
        }
      }
      logger.info('shut down')
    })()
    return closing
  }

  return {
    add: (name, closeStep) => {
      steps.push({ name, close: closeStep })
    },
    close,
    get closing() {
      return closing !== undefined
    },
    installSignalHandlers({ exit = (code: number) => process.exit(code) } = {}) {
      let firstAt = 0
      const onSignal = (signal: NodeJS.Signals) => {
        // One Ctrl-C can arrive twice: the terminal signals the whole process group, and a runner
        // in it (tsx, pnpm) forwards the signal again. Only a later one means "exit now".
        if (closing && Date.now() - firstAt < 1000) return
        if (closing) {
          logger.warn({ signal }, 'second signal: exiting now')
          exit(1)
          return
        }
        firstAt = Date.now()
        const deadline = setTimeout(() => {
          logger.error({ timeoutMs }, 'shutdown deadline passed: exiting')
          exit(1)
        }, timeoutMs)
        deadline.unref()
        void close(signal).then(() => exit(0))
      }
      process.on('SIGTERM', onSignal)
      process.on('SIGINT', onSignal)
      // Started by the supervisor (an IPC channel exists): its death closes the channel, and an
      // orphan must not keep consuming jobs unsupervised.
      if (process.send) process.once('disconnect', () => onSignal('SIGTERM'))
    },
  }
}
