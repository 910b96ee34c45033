import { readFile, writeFile } from 'node:fs/promises'
import { renderConfigurationTable, renderEnvExample, withConfigurationTable } from './env-example.ts'
import { allProcessConfigs } from './processes.ts'

// pnpm env:example: rewrites .env.example and the table of docs/configuration.md from the schemas.
const configs = allProcessConfigs as never
const envExample = new URL('../../../.env.example', import.meta.url)
await writeFile(envExample, await renderEnvExample(configs))
const docs = new URL('../../../docs/configuration.md', import.meta.url)
await writeFile(
  docs,
  withConfigurationTable(await readFile(docs, 'utf8'), await renderConfigurationTable(configs)),
)
process.stdout.write(`wrote ${envExample.pathname} and ${docs.pathname}\n`)
