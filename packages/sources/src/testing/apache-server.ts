import { spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'

const APACHE = '/usr/sbin/apache2'
export const APACHE_MODULES = '/usr/lib/apache2/modules'

/** What the WebDAV and web-site tests need of the machine (`bash scripts/install-webdav.sh`). */
export const APACHE_DAV_MODULE = `${APACHE_MODULES}/mod_dav_fs.so`

/** Whether it is there, by the test-asset policy (with CI=true a missing one fails the run). */
export const hasApache = (await findTestAsset(testConfig.parse(processEnvironment()).test, APACHE_DAV_MODULE))
  .found

export interface ApacheServer {
  /** Its scratch folder (configuration, logs). */
  dir: string
  /** The folder it serves: files written here are served. */
  root: string
  close(): Promise<void>
}

/**
 * Debian's Apache httpd on loopback, on a configuration of its own (the system's Apache is neither
 * used nor changed): `configure` writes what it serves and how, given its scratch folder and the
 * served folder. Up when `probe` (a URL and its headers) answers.
 */
export async function startApache(
  port: number,
  modules: string[],
  configure: (dir: string, root: string) => Promise<string> | string,
  probe: (base: string) => { url: string; headers?: Record<string, string> },
): Promise<ApacheServer> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-apache-'))
  const root = join(dir, 'www')
  await mkdir(root, { recursive: true })
  // The server's children run as www-data (Apache will not serve as root): the folder is theirs to write.
  await chmod(dir, 0o777)
  await chmod(root, 0o777)
  const user = process.getuid?.() === 0 ? 'User www-data\nGroup www-data' : ''
  const loads = ['mpm_event', 'authz_core', ...modules]
    .map((module) => `LoadModule ${module}_module ${APACHE_MODULES}/mod_${module}.so`)
    .join('\n')
  await writeFile(
    join(dir, 'httpd.conf'),
    `ServerRoot ${dir}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${dir}/httpd.pid
ErrorLog ${dir}/error.log
${user}
${loads}
${await configure(dir, root)}
`,
  )
  const child = spawn(APACHE, ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const { url, headers } = probe(`http://127.0.0.1:${port}`)
  // Up when it answers (a started process is not yet a listening one).
  for (let attempt = 0; ; attempt++) {
    const up = await fetch(url, { method: 'OPTIONS', ...(headers ? { headers } : {}) }).then(
      (response) => response.ok,
      () => false,
    )
    if (up) break
    if (child.exitCode !== null || attempt > 200) {
      const log = await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')
      child.kill('SIGKILL')
      await rm(dir, { recursive: true, force: true })
      throw new Error(`Apache did not start: ${log.slice(-2000)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    dir,
    root,
    async close() {
      child.kill('SIGTERM')
      await exited
      await rm(dir, { recursive: true, force: true })
    },
  }
}
