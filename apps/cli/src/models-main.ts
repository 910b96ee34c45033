import { modelsCommandConfig, processEnvironment } from '@rag/config'
import { createLogger } from '@rag/log'
import { runMain } from '@rag/runtime'
import { type ModelsAction, runModelsCommand } from './models-command.ts'

const USAGE = `usage: pnpm models list|verify|pull
  list     each configured model (EMBEDDING_MODEL, RERANKER_MODEL, LLM_MODEL): present or missing, size, folder
  verify   the same; exit 1 when one is missing
  pull     download what is missing now (from MODEL_ENDPOINT), then list
`

runMain(async () => {
  const action = process.argv[2]
  if (action !== 'list' && action !== 'verify' && action !== 'pull') {
    process.stderr.write(USAGE)
    process.exit(action === '--help' || action === '-h' ? 0 : 2)
  }
  const config = modelsCommandConfig.parse(processEnvironment())
  const logger = createLogger({ name: 'models', level: config.log.level })
  process.exitCode = await runModelsCommand(action as ModelsAction, config.models, {
    output: process.stdout,
    logger,
  })
})
