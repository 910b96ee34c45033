import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { processEnvironment } from '@rag/config'
import { expect, it } from 'vitest'

// `pnpm eval` as docs/clients.md promises: a configuration error (no DATABASE_URL) is exit 2 with
// the variable named, as for every other command, not 1 like a run that failed.
it('exits 2 naming DATABASE_URL when it is not set', async () => {
  const { DATABASE_URL: _unset, ...env } = processEnvironment()
  // What `pnpm eval` starts: the bundle while it is current, else the sources under tsx.
  const bin = fileURLToPath(new URL('../bin/eval.js', import.meta.url))
  const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, '--dataset', 'data/eval/sample-questions.json'], {
      env,
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk)
    })
    child.once('exit', (code) => resolve({ code, stderr }))
  })
  expect(result.stderr).toContain('DATABASE_URL')
  expect(result.stderr).not.toContain('    at ')
  expect(result.code, result.stderr).toBe(2)
})
