import { processEnvironment } from '@rag/config'
import { runRag } from './rag-program.ts'

// rag <command> …: see rag --help.
process.exitCode = await runRag(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: processEnvironment(),
})
