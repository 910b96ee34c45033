import { execFileSync } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { freePort } from '@rag/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SourceRecord } from './source-records.ts'
import { APACHE_DAV_MODULE } from './testing/apache-server.ts'
import { GIT_HTTP_BACKEND, type GitHttpServer, startGitHttpServer } from './testing/git-http-server.ts'
import { SSHD, type SshServer, startSshServer } from './testing/ssh-server.ts'
import { type SyncTestBed, startSyncTestBed } from './testing/sync-test-bed.ts'

// A Git source fetched the ways a team's repositories are reached: over HTTP with an access token
// (Apache running git's own http-backend, as a Git host serves it) and over ssh with a key (sshd on
// loopback running git-upload-pack), each credential refused when wrong, with the reason and
// without the secret in it.
const config = testConfig.parse(processEnvironment()).test
// With CI=true a missing server fails the run (the test-asset policy); elsewhere it skips.
const hasHttp =
  (await findTestAsset(config, APACHE_DAV_MODULE)).found &&
  (await findTestAsset(config, GIT_HTTP_BACKEND)).found
const hasSsh = (await findTestAsset(config, SSHD)).found

let bed: SyncTestBed
let http: GitHttpServer | undefined
let ssh: SshServer | undefined

beforeAll(async () => {
  bed = await startSyncTestBed('sources-git-remote', {
    maxItems: 1000,
    maxBytes: 200_000,
    requestTimeoutMs: 20_000,
    fetchTimeoutMs: 60_000,
  })
  if (hasHttp) http = await startGitHttpServer(await freePort())
  if (hasSsh) ssh = await startSshServer(await freePort())
})
afterAll(async () => {
  await http?.close()
  await ssh?.close()
  await bed?.close()
})

/** A repository of manuals at `path` with one commit on main; `commit` adds the next. */
async function manualsRepository(path: string) {
  await mkdir(join(path, 'docs'), { recursive: true })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: path, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  git('config', 'user.email', 'a@example.com')
  git('config', 'user.name', 'A')
  git('config', 'uploadpack.allowFilter', 'true')
  git('config', 'http.receivepack', 'false')
  await writeFile(join(path, 'docs', 'setup.md'), '# Setup\n\nPlug the lamp in.\n')
  await writeFile(join(path, 'README.md'), '# Manuals\n')
  git('add', '-A')
  git('commit', '-qm', 'first')
  return {
    async commit(files: Record<string, string | null>) {
      for (const [name, text] of Object.entries(files)) {
        if (text === null) git('rm', '-q', name)
        else await writeFile(join(path, name), text)
      }
      git('add', '-A')
      git('commit', '-qm', 'next')
    },
  }
}

const addSource = (name: string, url: string) => bed.addSource('git', name, { url, ref: 'main' })
const sync = (source: SourceRecord, credentials: Record<string, string>) => bed.sync(source, credentials)
const filenames = (collection: string) => bed.filenames(collection)

describe.skipIf(!hasHttp)('a repository over HTTP with an access token', () => {
  it('syncs with the token, follows a commit, and fails with the server’s refusal (token hidden) without it', async () => {
    if (!http) throw new Error('no server')
    const repo = await manualsRepository(join(http.root, 'manuals.git'))
    const source = await addSource('http-manuals', `${http.url}/manuals.git`)

    const wrong = 'ghp_wrong0token0here'
    const refused = await sync(source, { token: wrong })
    expect(refused).toMatchObject({ status: 'failed', added: 0 })
    expect(refused.error).toMatch(/could not fetch .*manuals\.git: the server refused the source’s token/)
    expect(refused.error).not.toContain(wrong)

    expect(await sync(source, { token: http.token })).toMatchObject({ status: 'done', seen: 2, added: 2 })
    expect(await filenames('http-manuals')).toEqual(['http-manuals/README.md', 'http-manuals/docs/setup.md'])

    await repo.commit({
      'README.md': null,
      'docs/setup.md': '# Setup\n\nPlug the lamp in, then press the switch.\n',
    })
    expect(await sync(source, { token: http.token })).toMatchObject({
      status: 'done',
      seen: 1,
      changed: 1,
      deleted: 1,
    })
    expect(await filenames('http-manuals')).toEqual(['http-manuals/docs/setup.md'])

    // A token that stopped working (expired, revoked): the sync fails, nothing indexed is lost.
    const expired = await sync(source, { token: 'ghp_expired0token' })
    expect(expired.status).toBe('failed')
    expect(await filenames('http-manuals')).toEqual(['http-manuals/docs/setup.md'])
  })
})

describe.skipIf(!hasSsh)('a repository over ssh with a key', () => {
  it('syncs with the key, refuses another key, and refuses a server whose host key changed', async () => {
    if (!ssh) throw new Error('no server')
    const path = join(bed.scratch, 'ssh-manuals')
    const repo = await manualsRepository(path)
    const source = await addSource('ssh-manuals', `${ssh.url}${path}`)

    const refused = await sync(source, { sshKey: ssh.otherKey })
    expect(refused).toMatchObject({ status: 'failed', added: 0 })
    expect(refused.error).toMatch(/the server refused the source’s ssh key .*Permission denied \(publickey\)/)

    expect(await sync(source, { sshKey: ssh.clientKey })).toMatchObject({ status: 'done', seen: 2, added: 2 })
    await repo.commit({ 'docs/faq.md': '# FAQ\n\nReturns within 30 days.\n' })
    expect(await sync(source, { sshKey: ssh.clientKey })).toMatchObject({ status: 'done', seen: 3, added: 1 })
    expect(await filenames('ssh-manuals')).toEqual([
      'ssh-manuals/README.md',
      'ssh-manuals/docs/faq.md',
      'ssh-manuals/docs/setup.md',
    ])

    // The host key was remembered on first use: a server answering with another is not trusted.
    await ssh.replaceHostKey()
    await repo.commit({ 'README.md': null })
    const replaced = await sync(source, { sshKey: ssh.clientKey })
    expect(replaced.status).toBe('failed')
    expect(replaced.error).toMatch(
      /the server’s host key changed since the first sync .*delete \S+\.known_hosts and sync again/,
    )
    expect(await filenames('ssh-manuals')).toHaveLength(3)
    // As the reason says: the file gone, the new key is taken.
    const knownHosts = /delete (\S+\.known_hosts)/.exec(replaced.error ?? '')?.[1] ?? ''
    await rm(knownHosts)
    expect(await sync(source, { sshKey: ssh.clientKey })).toMatchObject({ status: 'done', deleted: 1 })
    expect(await filenames('ssh-manuals')).toHaveLength(2)
  })
})
