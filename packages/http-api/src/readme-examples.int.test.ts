import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from './testing.ts'

// The README's examples as written: every `curl` and `pnpm rag` line of its sh blocks, run by a
// shell in the repository against a real gateway (its address put where the README says 3000).
const root = fileURLToPath(new URL('../../../', import.meta.url))
const run = promisify(execFile)
let server: GatewayServer
let questionId: string
let conversationId: string

/** The sh blocks' commands of the README and docs/ (continuations joined, comments and `# →` lines dropped). */
async function readmeCommands(): Promise<string[]> {
  const docs = (await readdir(`${root}docs`)).filter((name) => name.endsWith('.md'))
  const texts = await Promise.all(
    ['README.md', ...docs.map((name) => `docs/${name}`)].map((path) => readFile(`${root}${path}`, 'utf8')),
  )
  const blocks = texts.flatMap((text) =>
    [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? ''),
  )
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, '').split('\n'))
    .map((line) => line.replace(/\s+#(?![^']*'[^']*$).*$/, '').trim())
    .filter((line) => /^(curl |pnpm rag (ingest|ask|search|documents))/.test(line))
}

const COMMANDS = await readmeCommands()
/**
 * A command's own bound (a hang, not a slow machine: on a loaded one a `pnpm rag` start alone takes
 * seconds); the test's bound follows from the number of commands, so no deadline is raced.
 */
const PER_COMMAND_MS = 180_000

beforeAll(async () => {
  server = await startGatewayServer('readme-examples')
  const response = await fetch(`${server.baseUrl}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question: '保証期間は何年ですか', options: { mode: 'keyword' } }),
  })
  questionId = ((await response.json()) as { id: string }).id
  const thread = await fetch(`${server.baseUrl}/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  conversationId = ((await thread.json()) as { id: string }).id
})
afterAll(() => server?.close())

describe("the README's and docs' examples", () => {
  it('run as written: every curl gets a 2xx, every pnpm rag command exits 0', {
    timeout: COMMANDS.length * PER_COMMAND_MS,
  }, async () => {
    const commands = COMMANDS
    expect(commands.filter((line) => line.startsWith('curl ')).length).toBeGreaterThanOrEqual(5)
    expect(commands.filter((line) => line.startsWith('pnpm rag ')).length).toBeGreaterThanOrEqual(5)
    // Ingest first, so the questions after it have documents to answer from.
    const ordered = [...commands].sort(
      (a, b) => Number(!/ingest|documents$/.test(a)) - Number(!/ingest|documents$/.test(b)),
    )
    const failures: string[] = []
    for (const command of ordered) {
      const line = command
        .replaceAll('http://127.0.0.1:3000', server.baseUrl)
        .replaceAll('/conversations/<id>', `/conversations/${conversationId}`)
        .replaceAll('<id>', questionId)
      const script = line.startsWith('curl ')
        ? `${line} -sS -o /dev/null -w '%{http_code}' --max-time 60`
        : line
      const result = await run('bash', ['-c', script], {
        cwd: root,
        env: { ...process.env, GATEWAY_URL: server.baseUrl, LOG_LEVEL: 'warn', VITEST: '' },
        maxBuffer: 16 * 1024 * 1024,
        timeout: PER_COMMAND_MS,
      }).then(
        ({ stdout }) => ({ ok: true, stdout }),
        (error: { stdout?: string; stderr?: string; code?: number }) => ({
          ok: false,
          stdout: `${error.code}: ${error.stderr ?? ''}`,
        }),
      )
      const passed = line.startsWith('curl ') ? /^2\d\d$/.test(result.stdout.trim()) : result.ok
      if (!passed) failures.push(`${command} → ${result.stdout.trim().slice(0, 300)}`)
    }
    expect(failures).toEqual([])
    // Followed as written, the examples leave each sample once: no hit twice from two collections.
    const search = (await (
      await fetch(`${server.baseUrl}/search?${new URLSearchParams({ q: '保証期間は何年ですか', k: '10' })}`)
    ).json()) as { hits: { sourceId: string; documentId: string }[] }
    expect(search.hits.length).toBeGreaterThan(0)
    const documentsOf = new Map<string, Set<string>>()
    for (const { sourceId, documentId } of search.hits)
      documentsOf.set(sourceId, (documentsOf.get(sourceId) ?? new Set()).add(documentId))
    expect([...documentsOf].filter(([, documents]) => documents.size > 1)).toEqual([])
  })
})
