import { prettyFactory } from 'pino-pretty'

/** How lines read in the pretty format: time, level and message; the name is the line's prefix. */
export const PRETTY_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss',
  ignore: 'pid,hostname,name',
  // Fields beside the message on the same line: one record, one line.
  singleLine: true,
} as const

export type LineSource = 'stdout' | 'stderr'

/** Lines a person at the terminal need not read: each process's routine "I started" (the JSON log keeps them). */
const ROUTINE = [/^\[supervisor\] started, pid \d+$/, /^worker ready$/]

const PINO_WARN = 40

/**
 * Formats the lines of several processes for one terminal or log file (the supervisor's output).
 * json: a process's JSON line passes unchanged (it names its process); anything else (a crash's
 * stack, a tool's message) becomes a JSON line of its own, so the stream stays parseable (e.g. by
 * `pino-pretty`). pretty: JSON lines through pino-pretty, every line prefixed with the process;
 * a line a person need not read is not shown (undefined), and a warning another process gave
 * already (three processes load the embedding model) is said in its first sentence, as above.
 */
export function createLineFormatter({
  format,
  colorize,
  names,
}: {
  format: 'pretty' | 'json'
  colorize: boolean
  /** The processes' names, to align the prefixes. */
  names: string[]
}): (name: string, line: string, source: LineSource) => string | undefined {
  const width = Math.max(0, ...names.map((name) => name.length))
  const prettify = prettyFactory({ ...PRETTY_OPTIONS, colorize })
  const asJson = (line: string): Record<string, unknown> | undefined => {
    if (!line.startsWith('{')) return undefined
    try {
      const value: unknown = JSON.parse(line)
      return value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined
    } catch {
      return undefined
    }
  }
  /** Warnings shown in full, by message → the process that gave it first. */
  const warned = new Map<string, string>()
  const saidOnce = (record: Record<string, unknown>): Record<string, unknown> => {
    const { msg, level, name } = record
    if (typeof msg !== 'string' || typeof level !== 'number' || level < PINO_WARN) return record
    const first = warned.get(msg)
    if (first === undefined) {
      warned.set(msg, String(name ?? ''))
      return record
    }
    const sentence = msg.split(/[:.](\s|$)/)[0] ?? msg
    return { level, time: record.time, msg: `${sentence} (as ${first} said above)` }
  }
  return (name, line, source) => {
    const record = asJson(line)
    if (format === 'json')
      return record
        ? line
        : JSON.stringify({
            level: source === 'stderr' ? 50 : 30,
            time: new Date().toISOString(),
            name,
            msg: line,
          })
    const message = typeof record?.msg === 'string' ? record.msg : record ? undefined : line
    if (message !== undefined && ROUTINE.some((routine) => routine.test(message))) return undefined
    const prefix = colorize ? `\x1b[36m${name.padEnd(width)}\x1b[0m │` : `${name.padEnd(width)} │`
    const text = record ? prettify(saidOnce(record)).trimEnd() : line
    return text
      .split('\n')
      .map((part) => `${prefix} ${part}`)
      .join('\n')
  }
}
