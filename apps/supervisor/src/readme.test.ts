import { readFile } from 'node:fs/promises'
import { gatewayConfig, supervisorConfig, workerConfigs } from '@rag/config'
import { describe, expect, it } from 'vitest'

describe('README', () => {
  it('starts with the two commands, stays short, and docs/configuration.md documents every variable', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8')
    // A newcomer reads it in one go; the rest is in docs/, one file per topic.
    expect(readme.split('\n').length).toBeLessThanOrEqual(250)
    const configuration = await readFile(new URL('../../../docs/configuration.md', import.meta.url), 'utf8')
    const commands =
      readme
        .match(/```sh\n([\s\S]*?)```/)?.[1]
        ?.trim()
        .split('\n') ?? []
    expect(commands.map((line) => line.split('#')[0]?.trim())).toEqual([
      'pnpm install && pnpm start',
      'pnpm test',
    ])
    const variables = new Set([
      ...supervisorConfig.variables,
      ...Object.values(workerConfigs).flatMap((config) => config.variables),
      ...gatewayConfig.variables,
    ])
    expect([...variables].filter((name) => !configuration.includes(`\`${name}\``))).toEqual([])
  })
})
