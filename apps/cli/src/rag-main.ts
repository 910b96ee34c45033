import { dataFolderConfig, processEnvironment } from '@rag/config'
import { withRunningPlatform } from '@rag/process-supervisor'
import { runRag } from './rag-program.ts'

// rag <command> …: see rag --help. Without GATEWAY_URL, the gateway of the platform running on
// DATA_DIR (announced at its start), wherever its port is.
const { env } = await withRunningPlatform(
  processEnvironment(),
  dataFolderConfig.parse(processEnvironment()).storage.dataDir,
)
process.exitCode = await runRag(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env,
})
