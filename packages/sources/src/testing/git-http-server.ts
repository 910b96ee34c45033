import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startApache } from './apache-server.ts'

/** Git's own smart-HTTP server program, which Apache runs as a CGI. */
export const GIT_HTTP_BACKEND = '/usr/lib/git-core/git-http-backend'

export interface GitHttpServer {
  /** Where repositories are served: `<root>/<name>.git` is at `${url}/<name>.git`. */
  root: string
  /** `http://127.0.0.1:<port>/git` */
  url: string
  /** The token it takes (as a hosting service does: Basic, any user name, the token as password). */
  token: string
  close(): Promise<void>
}

/**
 * Repositories over smart HTTP behind Basic authentication, as GitHub, GitLab and Gitea serve them
 * with an access token: Apache running `git http-backend` on loopback.
 */
export async function startGitHttpServer(port: number): Promise<GitHttpServer> {
  const token = 'ghp_test0token0for0the0git0source'
  const server = await startApache(
    port,
    ['authn_core', 'authn_file', 'authz_user', 'auth_basic', 'alias', 'env', 'cgid'],
    async (dir, root) => {
      await promisify(execFile)('htpasswd', ['-bc', join(dir, 'users'), 'x-access-token', token])
      return `ScriptSock ${dir}/cgid.sock
SetEnv GIT_PROJECT_ROOT ${root}
SetEnv GIT_HTTP_EXPORT_ALL 1
# The CGI runs as another user than the one who made the repositories: git must serve them anyway.
SetEnv GIT_CONFIG_COUNT 1
SetEnv GIT_CONFIG_KEY_0 safe.directory
SetEnv GIT_CONFIG_VALUE_0 *
Alias /up ${dir}/httpd.conf
ScriptAlias /git/ ${GIT_HTTP_BACKEND}/
<Location /up>
  Require all granted
</Location>
<Location /git/>
  AuthType Basic
  AuthName git
  AuthUserFile ${dir}/users
  Require valid-user
</Location>`
    },
    (base) => ({ url: `${base}/up` }),
  )
  return { root: server.root, url: `http://127.0.0.1:${port}/git`, token, close: server.close }
}
