import { readdir, readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ProcessConfig } from './define-config.ts'

// `.env.example` is generated from the config schemas (defaults) and their source (the comment
// above each variable, grouped by the fragment that defines it), so it cannot drift from them.

const configDir = fileURLToPath(new URL('.', import.meta.url))
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

interface Documented {
  group: string
  comment: string[]
}

/** The `// …` lines right above each `NAME:` in the fragment sources, and the file it is in. */
async function readComments(): Promise<Map<string, Documented>> {
  const files = [
    ...(await readdir(join(configDir, 'fragments'))).map((name) => join(configDir, 'fragments', name)),
    join(configDir, 'processes.ts'),
  ].filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
  const found = new Map<string, Documented>()
  for (const path of files.sort()) {
    const group = basename(path, '.ts') === 'processes' ? 'commands' : basename(path, '.ts')
    let comment: string[] = []
    for (const line of (await readFile(path, 'utf8')).split('\n')) {
      const text = line.trim()
      const variable = text.match(/^([A-Z][A-Z0-9_]+):/)?.[1]
      if (text.startsWith('//')) comment.push(text.replace(/^\/\/\s?/, ''))
      else if (variable) {
        if (!found.has(variable)) found.set(variable, { group, comment })
        comment = []
      } else comment = []
    }
  }
  return found
}

/** The file's text: every variable commented out at its default, with what it is for. */
export async function renderEnvExample(configs: ProcessConfig<never>[]): Promise<string> {
  const defaults: Record<string, string> = {}
  for (const config of configs) Object.assign(defaults, config.defaults())
  const comments = await readComments()
  const groups = new Map<string, string[]>()
  for (const name of Object.keys(defaults).sort()) {
    const { group, comment } = comments.get(name) ?? { group: 'other', comment: [] }
    // Paths are shown as they are resolved: relative to this checkout, its folder, or home.
    const value = (defaults[name] ?? '')
      .replace(repoRoot, '')
      .replace(`${dirname(repoRoot)}/`, '../')
      .replace(homedir(), '~')
    groups.set(group, [
      ...(groups.get(group) ?? []),
      ...comment.map((line) => `# ${line}`),
      `# ${name}=${value}`,
      '',
    ])
  }
  const header = [
    '# rag-platform settings: copy this file to .env and uncomment what you change. Every process',
    '# (`pnpm start`, the workers, `pnpm rag`, `pnpm eval`, …) reads .env from the folder it runs in;',
    '# variables already in the environment win. Each line shows the default.',
    '# Generated from packages/config by `pnpm env:example`; a test keeps it in step.',
    '',
  ]
  const body = [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([group, lines]) => [`## ${group}`, ...lines])
  return `${[...header, ...body].join('\n').trimEnd()}\n`
}
