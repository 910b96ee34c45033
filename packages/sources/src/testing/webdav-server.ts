import { execFile, spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'

const APACHE = '/usr/sbin/apache2'
const MODULES = '/usr/lib/apache2/modules'

/** What the WebDAV tests need of the machine (`bash scripts/install-webdav.sh`): Apache's mod_dav. */
export const APACHE_DAV_MODULE = `${MODULES}/mod_dav_fs.so`

/** Whether it is there, by the test-asset policy (with CI=true a missing one fails the run). */
export const hasApache = (await findTestAsset(testConfig.parse(processEnvironment()).test, APACHE_DAV_MODULE))
  .found

export interface WebdavServer {
  /** The shared folder's URL (`http://127.0.0.1:<port>/dav/`). */
  url: string
  /** The folder it serves: files written here are on the share. */
  root: string
  username: string
  password: string
  close(): Promise<void>
}

/**
 * Debian's Apache httpd with mod_dav on loopback, on a configuration of its own (the system's
 * Apache is neither used nor changed), behind Basic authentication. Paths under `…/broken/`
 * answer 500, as a share failing halfway through a walk does.
 */
export async function startWebdavServer(port: number): Promise<WebdavServer> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-webdav-'))
  const root = join(dir, 'www')
  await mkdir(root, { recursive: true })
  // The server's children run as www-data (Apache will not serve as root): the share is theirs to write.
  await chmod(dir, 0o777)
  await chmod(root, 0o777)
  const username = 'reader'
  const password = 'dav-password-0123'
  await promisify(execFile)('htpasswd', ['-bc', join(dir, 'users'), username, password])
  const user = process.getuid?.() === 0 ? 'User www-data\nGroup www-data' : ''
  await writeFile(
    join(dir, 'httpd.conf'),
    `ServerRoot ${dir}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${dir}/httpd.pid
ErrorLog ${dir}/error.log
${user}
LoadModule mpm_event_module ${MODULES}/mod_mpm_event.so
LoadModule authz_core_module ${MODULES}/mod_authz_core.so
LoadModule authn_core_module ${MODULES}/mod_authn_core.so
LoadModule authn_file_module ${MODULES}/mod_authn_file.so
LoadModule authz_user_module ${MODULES}/mod_authz_user.so
LoadModule auth_basic_module ${MODULES}/mod_auth_basic.so
LoadModule alias_module ${MODULES}/mod_alias.so
LoadModule rewrite_module ${MODULES}/mod_rewrite.so
LoadModule dav_module ${MODULES}/mod_dav.so
LoadModule dav_fs_module ${MODULES}/mod_dav_fs.so
DAVLockDB ${dir}/davlock
Alias /dav ${root}
<Directory ${root}>
  Dav On
  AuthType Basic
  AuthName share
  AuthUserFile ${dir}/users
  Require valid-user
  RewriteEngine On
  RewriteRule (^|/)broken(/|$) - [R=500]
</Directory>
`,
  )
  const child = spawn(APACHE, ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}/dav/`
  const auth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`
  // Up when it answers (a started process is not yet a listening one).
  for (let attempt = 0; ; attempt++) {
    const up = await fetch(url, { method: 'OPTIONS', headers: { authorization: auth } }).then(
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
    url,
    root,
    username,
    password,
    async close() {
      child.kill('SIGTERM')
      await exited
      await rm(dir, { recursive: true, force: true })
    },
  }
}
