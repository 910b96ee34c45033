import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { renderEnvExample } from './env-example.ts'
import { allProcessConfigs } from './processes.ts'

describe('.env.example', () => {
  it('lists every variable with its default, as the config schemas say (regenerate: pnpm env:example)', async () => {
    const committed = await readFile(new URL('../../../.env.example', import.meta.url), 'utf8')
    expect(committed).toBe(await renderEnvExample(allProcessConfigs as never))
    for (const config of allProcessConfigs)
      for (const name of config.variables) expect(committed, name).toMatch(new RegExp(`^# ${name}=`, 'm'))
    expect(committed).toMatch(/^# GATEWAY_PORT=3000$/m)
    expect(committed).toMatch(/^# WEB_APP_DIR=$/m)
  })
})
