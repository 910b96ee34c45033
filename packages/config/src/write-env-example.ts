import { writeFile } from 'node:fs/promises'
import { renderEnvExample } from './env-example.ts'
import { allProcessConfigs } from './processes.ts'

// pnpm env:example: rewrites .env.example at the repository root.
const target = new URL('../../../.env.example', import.meta.url)
await writeFile(target, await renderEnvExample(allProcessConfigs as never))
process.stdout.write(`wrote ${target.pathname}\n`)
