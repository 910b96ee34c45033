import { type ChildProcess, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { createInterface } from 'node:readline'
import type { Writable } from 'node:stream'
import { isReadyMessage } from '@rag/runtime'

export interface ProgramSpec {
  name: string
  command: string
  args: string[]
  /** Variables of this program's own, over the supervisor's (a worker's metrics port). */
  env?: Record<string, string>
}

export interface SupervisorEvents {
  spawn: [{ name: string; pid: number | undefined }]
  exit: [{ name: string; code: number | null; signal: NodeJS.Signals | null }]
  restart: [{ name: string; delayMs: number }]
}

export interface ProcessSupervisorOptions {
  programs: ProgramSpec[]
  env: NodeJS.ProcessEnv
  cwd?: string
  /** Where the children's prefixed lines go (the supervisor's stdout). */
  output: Writable
  /** How a child's line is written (default: `name | line`; undefined: not shown); see createLineFormatter in @rag/log. */
  formatLine?: (name: string, line: string, source: 'stdout' | 'stderr') => string | undefined
  /** First restart delay; doubles for each crash in a row, up to maxRestartDelayMs. */
  restartDelayMs?: number
  maxRestartDelayMs?: number
  /**
   * A process that said it was up (announceReady in @rag/runtime) and then ran this long before
   * crashing starts again from the first delay. One that crashed before saying so crashed while
   * starting — a bad setting, a missing service — and backs off however long its start took.
   */
  stableAfterMs?: number
}

interface Running {
  spec: ProgramSpec
  child: ChildProcess | undefined
  crashesInRow: number
  startedAt: number
  /** When it said it was up (null: not yet, in this run). */
  readyAt: number | null
  timer: NodeJS.Timeout | undefined
}

/** Keeps a set of processes running: prefixes their output, restarts the ones that die, stops all. */
export class ProcessSupervisor extends EventEmitter<SupervisorEvents> {
  private readonly running = new Map<string, Running>()
  private stopping = false
  private readonly width: number

  constructor(private readonly options: ProcessSupervisorOptions) {
    super()
    this.width = Math.max(...options.programs.map((program) => program.name.length))
  }

  start(): void {
    for (const spec of this.options.programs) {
      const entry: Running = {
        spec,
        child: undefined,
        crashesInRow: 0,
        startedAt: 0,
        readyAt: null,
        timer: undefined,
      }
      this.running.set(spec.name, entry)
      this.launch(entry)
    }
  }

  pid(name: string): number | undefined {
    return this.running.get(name)?.child?.pid
  }

  /** SIGTERM to every child, SIGKILL to those still alive after timeoutMs. */
  async stop(timeoutMs = 15000): Promise<void> {
    this.stopping = true
    const exits = [...this.running.values()].map((entry) => {
      clearTimeout(entry.timer)
      const child = entry.child
      if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
      return new Promise<void>((resolve) => {
        const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
        child.once('exit', () => {
          clearTimeout(killer)
          resolve()
        })
        child.kill('SIGTERM')
      })
    })
    await Promise.all(exits)
  }

  private write(name: string, line: string, source: 'stdout' | 'stderr' = 'stdout') {
    const formatted = this.options.formatLine
      ? this.options.formatLine(name, line, source)
      : `${name.padEnd(this.width)} | ${line}`
    if (formatted !== undefined) this.options.output.write(`${formatted}\n`)
  }

  private launch(entry: Running) {
    const { spec } = entry
    const child = spawn(spec.command, spec.args, {
      cwd: this.options.cwd,
      env: { ...this.options.env, ...spec.env },
      // Own process group: a Ctrl-C in the terminal reaches only the supervisor, which then stops
      // each child once (a second signal would cut a worker's graceful drain short).
      detached: true,
      // The IPC channel closes when the supervisor dies, however it dies: children stop themselves then.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    entry.child = child
    entry.startedAt = Date.now()
    entry.readyAt = null
    child.on('message', (message) => {
      if (isReadyMessage(message)) entry.readyAt = Date.now()
    })
    for (const [source, stream] of [
      ['stdout', child.stdout],
      ['stderr', child.stderr],
    ] as const) {
      if (stream) createInterface({ input: stream }).on('line', (line) => this.write(spec.name, line, source))
    }
    child.once('error', (error) =>
      this.write(spec.name, `[supervisor] could not start: ${error.message}`, 'stderr'),
    )
    child.once('exit', (code, signal) => {
      this.emit('exit', { name: spec.name, code, signal })
      if (this.stopping) return
      const upMs = entry.readyAt === null ? 0 : Date.now() - entry.readyAt
      entry.crashesInRow = upMs >= (this.options.stableAfterMs ?? 10000) ? 1 : entry.crashesInRow + 1
      const first = this.options.restartDelayMs ?? 500
      const delayMs = Math.min(first * 2 ** (entry.crashesInRow - 1), this.options.maxRestartDelayMs ?? 30000)
      this.write(spec.name, `[supervisor] exited (${signal ?? `code ${code}`}); restarting in ${delayMs} ms`)
      this.emit('restart', { name: spec.name, delayMs })
      entry.timer = setTimeout(() => this.launch(entry), delayMs)
    })
    this.write(spec.name, `[supervisor] started, pid ${child.pid}`)
    this.emit('spawn', { name: spec.name, pid: child.pid })
  }
}
