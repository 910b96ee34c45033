import { execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/** OpenSSH's server (Debian's openssh-server; `bash scripts/install-sshd.sh` installs it). */
export const SSHD = '/usr/sbin/sshd'

export interface SshServer {
  /** `ssh://<user>@127.0.0.1:<port>`: a repository at an absolute path is `${url}${path}`. */
  url: string
  /** The private key it lets in (OpenSSH format), as a source's credential is. */
  clientKey: string
  /** A key it does not let in. */
  otherKey: string
  /** Starts it again on the same port with a new host key (a server replaced, or an attacker). */
  replaceHostKey(): Promise<void>
  close(): Promise<void>
}

const keygen = async (file: string) => {
  await promisify(execFile)('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'test', '-f', file])
  return readFile(file, 'utf8')
}

/** Answers when a client's connection gets the server's banner. */
const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('data', (data) => {
      socket.destroy()
      resolve(data.toString().startsWith('SSH-'))
    })
    socket.once('error', () => resolve(false))
  })

/**
 * sshd on loopback with a configuration of its own (the system's is neither used nor changed),
 * letting this machine's user in with one key only: where a Git source's `ssh://` repositories
 * are fetched from in the tests, through the same `git-upload-pack` a Git host runs.
 */
export async function startSshServer(port: number): Promise<SshServer> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-sshd-'))
  const clientKey = await keygen(join(dir, 'client'))
  const otherKey = await keygen(join(dir, 'other'))
  await writeFile(join(dir, 'authorized_keys'), await readFile(join(dir, 'client.pub'), 'utf8'))
  const user = userInfo().username
  // As root, sshd wants its privilege-separation folder, which only its service normally makes.
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 })
  let child: ReturnType<typeof spawn> | undefined
  const start = async () => {
    await rm(join(dir, 'host'), { force: true })
    await rm(join(dir, 'host.pub'), { force: true })
    await keygen(join(dir, 'host'))
    await writeFile(
      join(dir, 'sshd_config'),
      `Port ${port}
ListenAddress 127.0.0.1
HostKey ${dir}/host
PidFile ${dir}/sshd.pid
AuthorizedKeysFile ${dir}/authorized_keys
AllowUsers ${user}
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
`,
    )
    const started = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let log = ''
    started.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000)
    })
    for (let attempt = 0; !(await answers(port)); attempt++) {
      if (started.exitCode !== null || attempt > 200) {
        started.kill('SIGKILL')
        throw new Error(`sshd did not start: ${log}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    child = started
  }
  const stop = async () => {
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child?.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  await start()
  return {
    url: `ssh://${user}@127.0.0.1:${port}`,
    clientKey,
    otherKey,
    async replaceHostKey() {
      await stop()
      await start()
    },
    async close() {
      await stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
