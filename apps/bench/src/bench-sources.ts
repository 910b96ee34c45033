import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import type { BenchConfig } from '@rag/config'
import { processEnvironment } from '@rag/config'
import type { Pool } from '@rag/db'
import { registerDocument } from '@rag/ingest'
import { createLogger } from '@rag/log'
import { freePort } from '@rag/runtime'
import { insertSource, type SourceRecord, sourceReader, syncSource } from '@rag/sources'
import { LOOPBACK, startS3Server, startWebdavServer, startWebSiteServer } from '@rag/sources/testing'
import { closeRun, openRun, startWorkers, waitAllReady, workersAttached } from './bench-run.ts'
import { loadAverage } from './machine-load.ts'

const logger = createLogger({ name: 'bench', level: 'warn' })
const DEFAULT_COUNTS = { web: 1000, webdav: 2000, git: 5000, s3: 10000 } as const
type Kind = keyof typeof DEFAULT_COUNTS

/** A small Markdown manual page: distinct text a parser reads. */
const page = (i: number, version = 1) =>
  `# Manual page ${i}\n\nSection ${i} (revision ${version}) explains setting ${i * 7} of device ${i % 97}.\n`

/** The same manual page as a site serves it: the site's header, menu and footer around it. */
const htmlPage = (i: number, version = 1) =>
  `<!doctype html><html><head><title>Manual page ${i}</title></head><body><header>Acme intranet</header>
<nav><a href="/">Home</a> <a href="/s${Math.floor(i / 100)}.html">Section</a></nav><main><h1>Manual page ${i}</h1>
<p>Section ${i} (revision ${version}) explains setting ${i * 7} of device ${i % 97}.</p></main><footer>© Acme</footer></body></html>`

/** A place holding `count` files, and the ways to change one, delete one, and read it as a source. */
interface Place {
  /** A file as the place holds it (the baseline uploads the same). */
  file: { name: (i: number) => string; content: (i: number, version?: number) => string }
  settings: Record<string, unknown>
  credentials: Record<string, string>
  write(i: number, version: number): Promise<void>
  remove(i: number): Promise<void>
  /** After writes and removals (Git commits them). */
  settle(): Promise<void>
  close(): Promise<void>
}

const markdown = { name: (i: number) => `p${i}.md`, content: page }

/**
 * A static site on Apache: an index linking to sections of 100 pages each, every page linking back
 * (so depth 2 reaches all); its pages carry a site's chrome; a deleted page is a link that 404s.
 */
async function webPlace(count: number): Promise<Place> {
  const server = await startWebSiteServer(await freePort())
  const sections = Math.ceil(count / 100)
  const links = (from: number, to: number, name: (i: number) => string) =>
    Array.from({ length: to - from }, (_, k) => `<a href="/${name(from + k)}">${name(from + k)}</a>`).join(
      ' ',
    )
  await writeFile(
    join(server.root, 'index.html'),
    `<main><h1>Manuals</h1>${links(0, sections, (k) => `s${k}.html`)}</main>`,
  )
  for (let k = 0; k < sections; k++)
    await writeFile(
      join(server.root, `s${k}.html`),
      `<main><h1>Section ${k}</h1>${links(k * 100, Math.min(count, (k + 1) * 100), (i) => `p${i}.html`)}</main>`,
    )
  return {
    file: { name: (i) => `p${i}.html`, content: htmlPage },
    settings: { url: `${server.url}/`, depth: 2 },
    credentials: {},
    write: (i, version) => writeFile(join(server.root, `p${i}.html`), htmlPage(i, version)),
    remove: (i) => rm(join(server.root, `p${i}.html`)),
    settle: async () => {},
    close: () => server.close(),
  }
}

async function webdavPlace(): Promise<Place> {
  const server = await startWebdavServer(await freePort())
  await mkdir(join(server.root, 'manuals'), { recursive: true })
  return {
    file: markdown,
    settings: { url: server.url },
    credentials: { username: server.username, password: server.password },
    write: (i, version) => writeFile(join(server.root, 'manuals', `p${i}.md`), page(i, version)),
    remove: (i) => rm(join(server.root, 'manuals', `p${i}.md`)),
    settle: async () => {},
    close: () => server.close(),
  }
}

async function s3Place(): Promise<Place> {
  const server = await startS3Server(['bench'])
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  })
  return {
    file: markdown,
    settings: { bucket: 'bench', prefix: 'manuals/', endpoint: server.endpoint },
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    write: async (i, version) => {
      await client.send(
        new PutObjectCommand({ Bucket: 'bench', Key: `manuals/p${i}.md`, Body: page(i, version) }),
      )
    },
    remove: async (i) => {
      await client.send(new DeleteObjectCommand({ Bucket: 'bench', Key: `manuals/p${i}.md` }))
    },
    settle: async () => {},
    close: async () => {
      client.destroy()
      await server.close()
    },
  }
}

async function gitPlace(dir: string): Promise<Place> {
  const repo = join(dir, 'repo')
  await mkdir(join(repo, 'manuals'), { recursive: true })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  git('config', 'user.email', 'bench@example.com')
  git('config', 'user.name', 'bench')
  git('config', 'uploadpack.allowFilter', 'true')
  return {
    file: markdown,
    settings: { url: repo, ref: 'main' },
    credentials: {},
    write: (i, version) => writeFile(join(repo, 'manuals', `p${i}.md`), page(i, version)),
    remove: (i) => rm(join(repo, 'manuals', `p${i}.md`)),
    settle: async () => {
      git('add', '-A')
      git('commit', '-qm', 'change')
    },
    close: async () => {},
  }
}

/** The time to GET every page a web source holds, four at once, bodies read. */
async function plainGets(pool: Pool, sourceId: string): Promise<number> {
  const { rows } = await pool.query<{ key: string }>(
    'SELECT item_key AS key FROM source_items WHERE source_id = $1',
    [sourceId],
  )
  const started = performance.now()
  let next = 0
  const lane = async () => {
    for (let i = next++; i < rows.length; i = next++)
      await (await fetch(rows[i]?.key as string)).arrayBuffer()
  }
  await Promise.all(Array.from({ length: 4 }, lane))
  return performance.now() - started
}

const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now()
  await work()
  return performance.now() - started
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/**
 * `pnpm bench sources [web|webdav|git|s3] [--files N] [--until-ready]`: a place of N small files on
 * a real local server (a static site of HTML pages on Apache 1,000, Apache mod_dav 2,000, a Git
 * repository 5,000, s3rver 10,000 Markdown files by default), synced into a fresh schema: the first
 * sync against uploading the same files through the same path (the baseline, a schema of its own,
 * four at once as a sync reads them), a re-sync with nothing changed (files re-read must be 0), and
 * one with 1% changed and 1% deleted (exactly those). Registration only by default: no worker
 * runs, so both sides measure the same work — reading the place and recording documents.
 * `--until-ready` also runs the ingestion workers (as processes, keyword-only: the cheapest
 * processing there is) during the syncs and times the first sync until every document is ready —
 * what a team waits for before asking — against which the unchanged re-sync is then compared.
 */
export async function benchSources(config: BenchConfig, args: string[]): Promise<void> {
  const untilReady = args.includes('--until-ready')
  const filesAt = args.indexOf('--files')
  const asked = filesAt >= 0 ? Number(args[filesAt + 1]) : undefined
  if (asked !== undefined && !(Number.isInteger(asked) && asked >= 100))
    throw new Error('--files takes a whole number ≥ 100')
  // (Without --files, filesAt + 1 is 0: the first kind named is a kind, not a count.)
  const kinds = args.filter((arg, i) => !arg.startsWith('--') && (filesAt < 0 || i !== filesAt + 1)) as Kind[]
  for (const kind of kinds)
    if (!(kind in DEFAULT_COUNTS)) throw new Error(`unknown kind ${kind}: web, webdav, git or s3`)
  for (const kind of kinds.length > 0 ? kinds : (Object.keys(DEFAULT_COUNTS) as Kind[]))
    await benchKind(config, kind, asked ?? DEFAULT_COUNTS[kind], untilReady)
}

async function benchKind(config: BenchConfig, kind: Kind, count: number, untilReady: boolean) {
  const scratch = await mkdtemp(join(tmpdir(), `rag-bench-sources-${kind}-`))
  // The baseline's documents in a schema and queues of their own: workers (--until-ready) see the
  // sync's documents only.
  const uploads = await openRun(config, `sources_${kind}_upload`, null)
  const run = await openRun(config, `sources_${kind}`, null)
  const place =
    kind === 'web'
      ? await webPlace(count)
      : kind === 'webdav'
        ? await webdavPlace()
        : kind === 's3'
          ? await s3Place()
          : await gitPlace(scratch)
  const deps = { pool: run.pool, producer: run.producer, logger }
  const register = { uploadDir: join(scratch, 'uploads'), maxBytes: 1_000_000 }
  let workers: ReturnType<typeof startWorkers> | null = null
  try {
    for (let start = 0; start < count; start += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, count - start) }, (_, i) => place.write(start + i, 1)),
      )
    await place.settle()

    // The baseline: the same files through the upload path (registerDocument), read from disk.
    const local = join(scratch, 'local')
    await mkdir(local, { recursive: true })
    for (let i = 0; i < count; i++) await writeFile(join(local, place.file.name(i)), place.file.content(i, 1))
    // Four at once, as a sync reads them (and as `rag ingest` uploads): the same concurrency on both sides.
    const uploadStarted = performance.now()
    let next = 0
    const lane = async () => {
      for (let i = next++; i < count; i = next++)
        await registerDocument({ pool: uploads.pool, producer: uploads.producer, logger }, register, {
          filename: `uploaded/${place.file.name(i)}`,
          data: await readFile(join(local, place.file.name(i))),
          collection: 'uploads',
          keepPath: true,
        })
    }
    await Promise.all(Array.from({ length: 4 }, lane))
    const uploadMs = performance.now() - uploadStarted

    const source: SourceRecord = await insertSource(run.pool, {
      id: crypto.randomUUID(),
      name: 'bench',
      kind,
      collection: 'synced',
      settings: place.settings,
      credentials: null,
      intervalSeconds: null,
      createdBy: 'bench',
    })
    const sync = async () => {
      const reader = await sourceReader(kind, place.settings, place.credentials, {
        maxItems: count * 2,
        maxBytes: register.maxBytes,
        requestTimeoutMs: 60_000,
        fetchTimeoutMs: 600_000,
        gitCacheDir: join(scratch, 'git-cache'),
        env: processEnvironment(),
        // The bench's servers listen on loopback.
        policy: { allowPrivate: LOOPBACK },
      })
      const started = performance.now()
      try {
        const record = await syncSource(deps, source, reader, { ...register, trigger: 'bench' })
        return { record, ms: performance.now() - started }
      } finally {
        await reader.close?.()
      }
    }
    // The workers attached before the first sync, so its documents are processed as they come.
    workers = untilReady ? startWorkers(config, run, join(scratch, 'models'), 'none') : null
    if (workers) await workersAttached(run)
    const first = await sync()
    const readyMs = workers
      ? first.ms + (await timed(() => waitAllReady(run.pool, first.record.added, 60 * 60_000)))
      : null
    const again = await sync()
    // A site has no listing to compare: a re-sync asks each page once. Its floor is the server's
    // cost of answering that many plain GETs, four at once (measured here, same run).
    const floorMs = kind === 'web' ? await plainGets(run.pool, source.id) : null
    const hundredth = Math.max(1, Math.floor(count / 100))
    for (let i = 0; i < hundredth; i++) await place.write(i, 2)
    for (let i = count - hundredth; i < count; i++) await place.remove(i)
    await place.settle()
    const changed = await sync()

    const line = (name: string, ms: number, record: typeof first.record) =>
      console.log(
        `  ${name.padEnd(30)} ${seconds(ms).padStart(8)}  ${(ms / count).toFixed(2)} ms/file  seen ${record.seen}, new ${record.added}, changed ${record.changed}, unchanged ${record.unchanged}, deleted ${record.deleted}, failed ${record.failed}  (${record.status})`,
      )
    console.log(`${kind}: ${count} files; load ${loadAverage()}`)
    console.log(
      `  ${'upload of the same files'.padEnd(30)} ${seconds(uploadMs).padStart(8)}  ${(uploadMs / count).toFixed(2)} ms/file  (baseline)`,
    )
    line('first sync', first.ms, first.record)
    if (readyMs !== null)
      console.log(
        `  ${'first sync until all ready'.padEnd(30)} ${seconds(readyMs).padStart(8)}  ${(readyMs / count).toFixed(2)} ms/file  (the ingestion workers, keyword-only)`,
      )
    line('re-sync, nothing changed', again.ms, again.record)
    line(`re-sync, ${hundredth} changed, ${hundredth} deleted`, changed.ms, changed.record)
    if (floorMs !== null)
      console.log(
        `  ${'plain GETs of the same pages'.padEnd(30)} ${seconds(floorMs).padStart(8)}  (the server's floor for asking each page once)`,
      )
    console.log(
      `  re-sync unchanged / first sync: ${((100 * again.ms) / first.ms).toFixed(1)}%${readyMs !== null ? ` (registered), ${((100 * again.ms) / readyMs).toFixed(1)}% (until ready)` : ''}; files read again: ${again.record.added + again.record.changed} (0 expected)`,
    )
  } finally {
    await workers?.stop()
    await closeRun(uploads)
    await place.close()
    await closeRun(run)
    await rm(scratch, { recursive: true, force: true })
  }
}
