import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { APACHE_DAV_MODULE, startApache } from './apache-server.ts'

export { APACHE_DAV_MODULE }

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
 * Apache with mod_dav on loopback, behind Basic authentication. Paths under `…/broken/` answer
 * 500, as a share failing halfway through a walk does.
 */
export async function startWebdavServer(port: number): Promise<WebdavServer> {
  const username = 'reader'
  const password = 'dav-password-0123'
  const auth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`
  const server = await startApache(
    port,
    ['authn_core', 'authn_file', 'authz_user', 'auth_basic', 'alias', 'rewrite', 'dav', 'dav_fs'],
    async (dir, root) => {
      await promisify(execFile)('htpasswd', ['-bc', join(dir, 'users'), username, password])
      return `DAVLockDB ${dir}/davlock
Alias /dav ${root}
<Directory ${root}>
  Dav On
  AuthType Basic
  AuthName share
  AuthUserFile ${dir}/users
  Require valid-user
  RewriteEngine On
  RewriteRule (^|/)broken(/|$) - [R=500]
</Directory>`
    },
    (base) => ({ url: `${base}/dav/`, headers: { authorization: auth } }),
  )
  return { url: `http://127.0.0.1:${port}/dav/`, root: server.root, username, password, close: server.close }
}
