import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { dropPrefix } from '@rag/queue/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runRag } from './rag-program.ts'

// `rag` as a person and a script use it: help, one-line errors with exit codes, --json that
// parses, and a gateway's rate limit waited out. Against a real gateway on a real port.
const sampleDir = fileURLToPath(new URL('../../../data/sample/', import.meta.url))
let server: GatewayServer

beforeAll(async () => {
  server = await startGatewayServer('cli-rag', {
    gateway: { access: { apiKeys: [], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 60 } },
  })
})
afterAll(() => server?.close())

function text() {
  let written = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk)
      done()
    },
  })
  return { stream, read: () => written }
}

async function rag(
  args: string[],
  env: Record<string, string> = {},
  wait?: (seconds: number) => Promise<void>,
) {
  const stdout = text()
  const stderr = text()
  const code = await runRag(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { GATEWAY_URL: server.baseUrl, LOG_LEVEL: 'warn', ...env },
    ...(wait ? { wait } : {}),
  })
  return { code, stdout: stdout.read(), stderr: stderr.read() }
}

describe('rag', () => {
  it('has --help on every command, on stdout, exit 0', async () => {
    for (const command of [
      [],
      ['ingest'],
      ['ask'],
      ['search'],
      ['documents'],
      ['models'],
      ['keys'],
      ['collections'],
      ['sources'],
    ]) {
      const { code, stdout, stderr } = await rag([...command, '--help'])
      expect(code, command.join(' ')).toBe(0)
      expect(stdout).toMatch(/^Usage: rag/)
      expect(stderr).toBe('')
    }
    expect((await rag(['--help'])).stdout).toMatch(/ingest .*\n.*ask .*\n.*search/s)
  })

  it('says what is wrong with a command line in one line and exits 2, without a stack trace', async () => {
    for (const args of [
      ['ingest', '--bogus', 'x'],
      ['ask'],
      ['ask', '--top-k', 'two', 'q'],
      ['frobnicate'],
    ]) {
      const { code, stdout, stderr } = await rag(args)
      expect(code, args.join(' ')).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/^error: /)
      expect(stderr).not.toMatch(/\n\s+at /)
    }
  })

  it('makes a key with a role and collections (shown once), lists it by prefix and revokes it', async () => {
    // Only for collections that exist: a misspelt one is refused, naming it and how to begin one.
    const refusedKey = await rag(['keys', 'create', '--role', 'reader', '--collections', 'hr,legal'])
    expect(refusedKey.code).toBe(1)
    expect(refusedKey.stderr).toMatch(/no collection "hr".*rag collections create/)
    for (const name of ['hr', 'legal'])
      expect((await rag(['collections', 'create', name])).stdout).toBe(`created ${name}  0 documents\n`)
    expect((await rag(['collections', 'list'])).stdout).toMatch(/^hr {2}0 documents\nlegal {2}0 documents\n/m)
    const made = await rag(['keys', 'create', '--role', 'reader', '--collections', 'hr,legal', '--json'])
    expect(made.code, made.stderr).toBe(0)
    const key = JSON.parse(made.stdout) as { id: string; key: string; prefix: string; collections: string[] }
    expect(key.collections).toEqual(['hr', 'legal'])
    const listed = await rag(['keys', 'list'])
    expect(listed.stdout).toContain(`${key.id}  ${key.prefix}…  reader hr,legal`)
    expect(listed.stdout).not.toContain(key.key)
    // The key works until it is revoked: a reader may list documents, not make keys.
    expect((await rag(['documents', '--json'], { API_KEY: key.key })).code).toBe(0)
    const refused = await rag(['keys', 'list'], { API_KEY: key.key })
    expect(refused.code, refused.stderr).toBe(1)
    expect(refused.stderr).toMatch(/needs the admin role/)
    expect((await rag(['keys', 'revoke', key.id])).stdout).toMatch(/^revoked/)
    expect((await rag(['keys', 'create', '--role', 'owner'])).code).toBe(2)
  })

  it('says how to reach the gateway when it is down: one line, exit 1', async () => {
    const { code, stderr } = await rag(['documents'], { GATEWAY_URL: 'http://127.0.0.1:9' })
    expect(code, stderr).toBe(1)
    expect(stderr).toMatch(/^rag: cannot reach the gateway at http:\/\/127\.0\.0\.1:9 .*pnpm start.*\n$/)
    const debug = await rag(['--debug', 'documents'], { GATEWAY_URL: 'http://127.0.0.1:9' })
    expect(debug.stderr).toMatch(/\n\s+at /)
    // A global option after the subcommand works too, as the hint has it.
    const after = await rag(['documents', '--debug'], { GATEWAY_URL: 'http://127.0.0.1:9' })
    expect(after.stderr).toMatch(/\n\s+at /)
  })

  it('calibrates on the evaluation set when no file is given, and says what it lacks', async () => {
    // No reviewer has made a case of `hr` yet: the gateway names what a calibration needs.
    const { code, stderr } = await rag(['calibrate', '--collection', 'hr'])
    expect(code, stderr).toBe(1)
    expect(stderr).toMatch(/the evaluation set of hr is empty: make cases from feedback/)
  })

  it('finds the gateway at GATEWAY_PORT when GATEWAY_URL is not set', async () => {
    const port = new URL(server.baseUrl).port
    const moved = await rag(['documents', '--json'], { GATEWAY_URL: '', GATEWAY_PORT: port })
    expect(moved.code, moved.stderr).toBe(0)
    expect(Array.isArray(JSON.parse(moved.stdout))).toBe(true)
  })

  it('names a bad setting and exits 2', async () => {
    const { code, stderr } = await rag(['documents'], { GATEWAY_PORT: 'eighty' })
    expect(code, stderr).toBe(2)
    expect(stderr).toMatch(/GATEWAY_PORT/)
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('prints only JSON on stdout with --json: ingest, documents, search, ask', async () => {
    const ingested = await rag(['ingest', '--json', join(sampleDir, 'faq.csv'), join(sampleDir, 'setup.md')])
    expect(ingested.code, ingested.stderr).toBe(0)
    const result = JSON.parse(ingested.stdout) as { ready: number; documents: { filename: string }[] }
    expect(result.ready).toBe(2)
    expect(result.documents.map((document) => document.filename).sort()).toEqual(['faq.csv', 'setup.md'])

    const listed = JSON.parse((await rag(['documents', '--json'])).stdout) as { status: string }[]
    expect(listed.every((document) => document.status === 'ready')).toBe(true)
    const found = JSON.parse((await rag(['search', '--json', '--mode', 'keyword', 'LEDの寿命'])).stdout) as {
      hits: { sourceId: string }[]
    }
    expect(found.hits[0]?.sourceId).toBe('faq.csv:r4')
    const asked = await rag(['ask', '--json', '--mode', 'keyword', 'LEDの寿命は？'])
    expect((JSON.parse(asked.stdout) as { sources: { sourceId: string }[] }).sources[0]?.sourceId).toBe(
      'faq.csv:r4',
    )
    expect(asked.stderr).toMatch(/done…/)
  })

  it('waits out the upload rate limit as Retry-After says: a 70-file folder all ready', async () => {
    const folder = join(server.dir, 'seventy')
    await mkdir(folder, { recursive: true })
    for (let i = 0; i < 70; i++)
      await writeFile(join(folder, `note-${i}.txt`), `メモ ${i}: 会議室 ${i} は空いています。`)
    // The minute the gateway asks to wait passes at once: when the CLI waits, the limiter's window
    // is ended (its counts dropped), as the clock would end it — the 429s, their Retry-After and
    // the CLI's waiting and retrying are all real.
    const waits: number[] = []
    const windowEnds = async (seconds: number) => {
      waits.push(seconds)
      await dropPrefix(server.fixture.redisUrl, `${server.fixture.prefix}:rate:uploads`)
    }
    const { code, stdout, stderr } = await rag(['ingest', folder], {}, windowEnds)
    expect(stdout.trim().split('\n').at(-1)).toBe('70 ready, 0 failed')
    expect(code, stderr).toBe(0)
    expect(stderr).toMatch(/rate limited by the gateway: waiting \d+ s/)
    expect(waits.length).toBeGreaterThan(0)
    expect(waits.every((seconds) => seconds >= 1 && seconds <= 60)).toBe(true)
  })
})
