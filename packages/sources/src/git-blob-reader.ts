import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'

/**
 * Blobs of a repository read through one `git cat-file --batch` process (one process a file cost
 * a Git source's first sync 50 ms a file on 2 loaded cores): a blob id in, `<id> blob <size>\n`,
 * the bytes and a newline out, one request at a time in order. Sizes were checked before (the
 * listing), so a blob is held whole; a blob the repository lacks answers `<id> missing`.
 */
export function gitBlobReader(repo: string, env: NodeJS.ProcessEnv) {
  let child: ChildProcessWithoutNullStreams | undefined
  let buffered: Buffer = Buffer.alloc(0)
  let waiting: { resolve(data: Buffer): void; reject(error: Error): void } | undefined
  let chain: Promise<unknown> = Promise.resolve()

  const fail = (error: Error) => {
    waiting?.reject(error)
    waiting = undefined
    child = undefined
  }
  /** Takes one whole answer off the buffer, when it has arrived. */
  const drain = () => {
    if (!waiting) return
    const end = buffered.indexOf(10)
    if (end < 0) return
    const header = buffered.subarray(0, end).toString('utf8')
    if (header.endsWith(' missing')) {
      buffered = buffered.subarray(end + 1)
      return fail(new Error(`blob ${header.split(' ')[0]} is not in the repository`))
    }
    const size = Number(header.split(' ')[2])
    if (!Number.isInteger(size)) return fail(new Error(`git cat-file said ${JSON.stringify(header)}`))
    if (buffered.length < end + 1 + size + 1) return
    const data = Buffer.from(buffered.subarray(end + 1, end + 1 + size))
    buffered = buffered.subarray(end + 1 + size + 1)
    const done = waiting
    waiting = undefined
    done.resolve(data)
  }
  const start = () => {
    const started = spawn('git', ['cat-file', '--batch'], { cwd: repo, env })
    started.stdout.on('data', (part: Buffer) => {
      buffered = buffered.length === 0 ? part : Buffer.concat([buffered, part])
      drain()
    })
    started.stderr.resume()
    started.once('error', (error) => fail(error))
    started.once('exit', (code) => fail(new Error(`git cat-file ended (${code})`)))
    return started
  }

  return {
    read(sha: string, timeoutMs: number): Promise<Buffer> {
      const next = chain.then(
        () =>
          new Promise<Buffer>((resolve, reject) => {
            child ??= start()
            const timer = setTimeout(() => {
              // A blob that does not come is a stuck process: the next read starts another.
              child?.kill()
              fail(new Error(`no answer from git cat-file within ${timeoutMs / 1000} s`))
            }, timeoutMs)
            waiting = {
              resolve: (data) => {
                clearTimeout(timer)
                resolve(data)
              },
              reject: (error) => {
                clearTimeout(timer)
                buffered = Buffer.alloc(0)
                reject(error)
              },
            }
            child.stdin.write(`${sha}\n`)
            drain()
          }),
      )
      chain = next.catch(() => undefined)
      return next
    },
    close() {
      child?.stdin.end()
      child = undefined
    },
  }
}
