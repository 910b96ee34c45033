import { spawn } from 'node:child_process'
import { processEnvironment } from '@rag/config'
import { type ProcessName, processCommands } from '@rag/process-catalog'
import { describe, expect, it } from 'vitest'

function run(name: ProcessName, env: NodeJS.ProcessEnv) {
  const [program] = processCommands([name])
  if (!program) throw new Error(name)
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(program.command, program.args, { env: { ...processEnvironment(), ...env } })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk)
    })
    child.once('exit', (code) => resolve({ code, stderr }))
  })
}

describe('a process started with a bad variable', () => {
  it('exits 2 (a configuration error) at once with a message naming the variable', async () => {
    const result = await run('worker-chunk', {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      CHUNK_SIZE: '300',
      CHUNK_OVERLAP: '600',
    })
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain('Invalid configuration for worker-chunk:')
    expect(result.stderr).toContain('CHUNK_OVERLAP: must be smaller than CHUNK_SIZE (300), got 600')
    expect(result.stderr).not.toContain('    at ')
  })

  it('names a non-numeric port', async () => {
    const result = await run('gateway', { DATABASE_URL: 'postgres://x@127.0.0.1/x', GATEWAY_PORT: 'eighty' })
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain('GATEWAY_PORT: must be an integer, got "eighty"')
  })
})
