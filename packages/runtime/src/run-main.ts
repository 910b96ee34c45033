import { ConfigError } from '@rag/config'

/**
 * Runs a process's start function. A configuration error is printed as it is (it names the bad
 * variable) and exits 1 without a stack trace; anything else is printed with its stack.
 */
export function runMain(start: () => Promise<unknown>): void {
  start().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
    } else {
      process.stderr.write(
        `fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      )
    }
    process.exit(1)
  })
}
