import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

export interface TestProvider {
  issuer: string
  /** Lets a client in, with the redirect URIs it may come back to. */
  registerClient(clientId: string, redirectUris: string[]): Promise<void>
  /** What the person signing in as `login` gets in their groups claim from now on. */
  setGroups(login: string, groups: string[]): Promise<void>
  /** Whether codes issued from now on have outlived their life when exchanged (a slow return). */
  codesExpire(on: boolean): Promise<void>
  /** The provider goes away (a provider that is down). */
  stop(): Promise<void>
}

const ENTRY = new URL('./test-provider-main.ts', import.meta.url)

/**
 * Starts a real OIDC provider (oidc-provider) on a free loopback port in a child process, its
 * clock `clockOffsetSeconds` away from this one. Always `stop()` it.
 */
export async function startTestProvider({ clockOffsetSeconds = 0 } = {}): Promise<TestProvider> {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), ENTRY.pathname, `--clock-offset=${clockOffsetSeconds}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let errors = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000)
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the test OIDC provider exited (${code}): ${errors}`)))
    if (!child.stdout) return reject(new Error('the test OIDC provider has no output'))
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = line.match(/^listening (\d+)$/)
      if (match) resolve(Number(match[1]))
    })
  })
  const issuer = `http://127.0.0.1:${port}`
  const control = async (path: string, body: unknown) => {
    const response = await fetch(`${issuer}/__test/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`test provider ${path}: ${response.status}`)
  }
  return {
    issuer,
    registerClient: (clientId, redirectUris) => control('client', { clientId, redirectUris }),
    setGroups: (login, groups) => control('groups', { login, groups }),
    codesExpire: (on) => control('codes-expire', { on }),
    stop: () => stopChild(child),
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}
