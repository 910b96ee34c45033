import { type ChildProcess, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ChildMessage, ParentMessage } from './sandbox-protocol.ts'

/** What a parse child runs: a script and the Node options it needs (a loader for TypeScript). */
export interface ChildEntry {
  path: string
  execArgv: string[]
}

/**
 * The child's code: its source, and the package's build of it (`pnpm build`: dist/parse-child.mjs,
 * started without tsx at a third of the CPU — a busy parse worker starts many). Whoever creates
 * the sandbox chooses, knowing whether that build is current (@rag/runtime's freshBundle).
 */
export const PARSE_CHILD = {
  source: {
    path: fileURLToPath(new URL('./parse-child.ts', import.meta.url)),
    execArgv: ['--import', import.meta.resolve('tsx')],
  },
  bundle: {
    path: fileURLToPath(new URL('../../dist/parse-child.mjs', import.meta.url)),
    execArgv: ['--enable-source-maps'],
  },
} satisfies Record<string, ChildEntry>

export type ChildEvent =
  | { kind: 'message'; message: ChildMessage }
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null; stderr: string }

/** One parse child process and the events it sends, read one at a time by whoever is using it. */
export class SandboxChild {
  readonly process: ChildProcess
  jobs = 0
  private readonly events: ChildEvent[] = []
  private wake: (() => void) | undefined
  private stderr = ''

  constructor(memoryMb: number, entry: ChildEntry = PARSE_CHILD.source) {
    this.process = fork(entry.path, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${memoryMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      // A process group of its own: the OCR helpers it starts (tesseract, pdftoppm) are in it, and
      // killing the group kills them with it (a killed child's helpers would otherwise run on).
      detached: true,
    })
    this.process.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000)
    })
    this.process.on('message', (message: ChildMessage) => this.push({ kind: 'message', message }))
    this.process.on('exit', (code, signal) => this.push({ kind: 'exit', code, signal, stderr: this.stderr }))
    // A failed spawn is followed by 'exit'; the event itself carries nothing more to act on.
    this.process.on('error', () => undefined)
  }

  get alive() {
    return this.process.exitCode === null && this.process.signalCode === null
  }

  send(message: ParentMessage) {
    if (this.process.connected) this.process.send(message)
  }

  async next(): Promise<ChildEvent> {
    while (this.events.length === 0) await new Promise<void>((resolve) => (this.wake = resolve))
    return this.events.shift() as ChildEvent
  }

  /** Ends the child and every helper it started (its whole process group). */
  kill() {
    const { pid } = this.process
    if (pid === undefined) return
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // The group is gone already (the child exited and its helpers with it).
      if (this.alive) this.process.kill('SIGKILL')
    }
  }

  private push(event: ChildEvent) {
    this.events.push(event)
    this.wake?.()
  }
}
