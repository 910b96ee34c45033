import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  CONFIG_TABLE_END,
  CONFIG_TABLE_START,
  renderConfigurationTable,
  renderEnvExample,
} from './env-example.ts'
import { allProcessConfigs } from './processes.ts'

describe('.env.example', () => {
  it('lists every variable with its default, as the config schemas say (regenerate: pnpm env:example)', async () => {
    const committed = await readFile(new URL('../../../.env.example', import.meta.url), 'utf8')
    expect(committed).toBe(await renderEnvExample(allProcessConfigs as never))
    for (const config of allProcessConfigs)
      for (const name of config.variables) expect(committed, name).toMatch(new RegExp(`^# ${name}=`, 'm'))
    expect(committed).toMatch(/^# CHUNK_SIZE=500$/m)
    expect(committed).toMatch(/^# WEB_APP_DIR=$/m)
  })

  it('docs/configuration.md carries the same defaults and descriptions, generated (pnpm env:example)', async () => {
    const docs = await readFile(new URL('../../../docs/configuration.md', import.meta.url), 'utf8')
    const table = docs.slice(
      docs.indexOf(CONFIG_TABLE_START),
      docs.indexOf(CONFIG_TABLE_END) + CONFIG_TABLE_END.length,
    )
    // Cells compared without their padding: a Markdown formatter may align the columns.
    expect(withoutPadding(table)).toBe(
      withoutPadding(await renderConfigurationTable(allProcessConfigs as never)),
    )
    // The keyword scorer's k1 is 0.9 in the code, so it is here.
    expect(withoutPadding(table)).toMatch(/^\| `BM25_K1` \| `0\.9` \|/m)
  })
})

function withoutPadding(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split('|')
            .map((cell) => (/^\s*:?-+:?\s*$/.test(cell) ? '---' : cell.trim()))
            .join(' | ')
            .trim()
        : line,
    )
    .join('\n')
}
