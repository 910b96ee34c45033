import { randomBytes } from 'node:crypto'
import { openAsBlob } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchConfig } from '@rag/config'
import { freePort } from '@rag/runtime'
import { closeRun, openRun, startWorkers } from './bench-run.ts'
import { loadAverage } from './machine-load.ts'

const FILE_MB = 49

/** The gateway's resident memory (MiB), sampled every 100 ms: the largest seen since the last take(). */
function sampleResident(pid: () => number | undefined) {
  let peak = 0
  const timer = setInterval(async () => {
    const id = pid()
    const status = id ? await readFile(`/proc/${id}/status`, 'utf8').catch(() => '') : ''
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    peak = Math.max(peak, Math.round(kb / 1024))
  }, 100)
  timer.unref()
  return {
    take() {
      const seen = peak
      peak = 0
      return seen
    },
    stop: () => clearInterval(timer),
  }
}

/**
 * `pnpm bench transfers [N]` (default 100): the gateway as its own process, N uploads of a 49 MB
 * file at once, then N downloads of it at once; prints the gateway's resident memory at rest, with
 * one transfer (the baseline, in the same run) and with N at once. Streamed transfers keep it flat.
 */
export async function benchTransfers(config: BenchConfig, args: string[]): Promise<void> {
  const count = Number(args[0] ?? 100)
  if (!Number.isInteger(count) || count < 1) throw new Error('usage: pnpm bench transfers [N]')
  const work = await mkdtemp(join(tmpdir(), 'rag-bench-transfers-'))
  const file = join(work, 'large.txt')
  // Text (so it is an accepted type) that does not compress to nothing: hex of random bytes.
  await writeFile(file, randomBytes((FILE_MB * 1024 * 1024) / 2).toString('hex'))
  await mkdir(join(work, 'data'))
  const port = await freePort()
  const run = await openRun(config, 'transfers', null)
  const supervisor = startWorkers(
    config,
    run,
    join(work, 'models'),
    'none',
    {
      GATEWAY_PORT: String(port),
      GATEWAY_HOST: '127.0.0.1',
      DATA_DIR: join(work, 'data'),
      UPLOAD_RATE_PER_MINUTE: '0',
      UPLOAD_MAX_BYTES: String(50 * 1024 * 1024),
    },
    ['gateway'],
  )
  const base = `http://127.0.0.1:${port}`
  const memory = sampleResident(() => supervisor.pid('gateway'))
  try {
    for (;;) {
      const up = await fetch(`${base}/healthz`).then(
        (response) => response.status < 600,
        () => false,
      )
      if (up) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const idle = memory.take()
    const blob = await openAsBlob(file, { type: 'text/plain' })
    const upload = async (n: number) => {
      const form = new FormData()
      form.append('files', blob, `large-${n}.txt`)
      const response = await fetch(`${base}/documents`, { method: 'POST', body: form })
      const body = (await response.json()) as { documents?: { id: string }[] }
      return { status: response.status, id: body.documents?.[0]?.id }
    }
    const download = async (id: string) => {
      const response = await fetch(`${base}/documents/${id}/file`)
      let bytes = 0
      for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).byteLength
      return { status: response.status, bytes }
    }
    const timed = async <T>(work: () => Promise<T>) => {
      const started = performance.now()
      const result = await work()
      return { result, seconds: (performance.now() - started) / 1000, peak: memory.take() }
    }
    const one = await timed(() => upload(0))
    const many = await timed(() => Promise.all(Array.from({ length: count }, (_, n) => upload(n + 1))))
    const id = one.result.id
    if (!id) throw new Error(`the baseline upload was answered ${one.result.status}`)
    const oneDown = await timed(() => download(id))
    const manyDown = await timed(() => Promise.all(Array.from({ length: count }, () => download(id))))
    const statuses = (list: { status: number }[]) => [...new Set(list.map((each) => each.status))].join('/')
    console.log(`gateway resident memory, ${FILE_MB} MB files (at rest: ${idle} MiB):`)
    console.log(
      `  1 upload:          peak ${one.peak} MiB, ${one.seconds.toFixed(1)} s (${one.result.status})`,
    )
    console.log(
      `  ${count} uploads at once: peak ${many.peak} MiB, ${many.seconds.toFixed(1)} s (${statuses(many.result)})`,
    )
    console.log(`  1 download:        peak ${oneDown.peak} MiB, ${oneDown.seconds.toFixed(1)} s`)
    console.log(
      `  ${count} downloads at once: peak ${manyDown.peak} MiB, ${manyDown.seconds.toFixed(1)} s (${statuses(manyDown.result)}, ${(manyDown.result.reduce((sum, each) => sum + each.bytes, 0) / 1048576).toFixed(0)} MiB read)`,
    )
    console.log(`load average (1, 5, 15 min): ${loadAverage()}`)
  } finally {
    memory.stop()
    await supervisor.stop()
    await closeRun(run)
    await rm(work, { recursive: true, force: true })
  }
}
