import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gitBlobReader } from './git-blob-reader.ts'
import { gitFailure } from './git-failure.ts'
import { type GitTransport, gitTransport } from './network/git-transport.ts'
import type { OutboundPolicy } from './network/outbound-policy.ts'
import {
  describeError,
  ItemError,
  type ReadLimits,
  type SourceItem,
  SourceListingError,
  type SourceReader,
} from './source-listing.ts'

export interface GitSettings {
  /** Anything `git` clones: https://…, ssh://… or git@host:…, a local path. */
  url: string
  /** A branch or tag (default: the remote's HEAD). */
  ref?: string
  /** Only files under this folder of the repository. */
  path?: string
}

export interface GitCredentials {
  /** An https access token (GitHub, GitLab, Gitea: sent as Basic x-access-token:<token>). */
  token?: string
  /** A private key for ssh. */
  sshKey?: string
}

const SYMLINK = '120000'
const SUBMODULE = '160000'

/** Quoted for the shell git runs GIT_SSH_COMMAND in (a folder may hold spaces or quotes). */
const quoted = (value: string) => `'${value.replaceAll("'", "'\\''")}'`

/**
 * ssh as a sync needs it: never a prompt, the host key trusted on first use and remembered in
 * `knownHosts`, only the source's key offered when it has one, to the address checked.
 */
function sshCommand(knownHosts: string, transport: GitTransport, keyFile?: string): string {
  return [
    'ssh',
    ...transport.sshOptions,
    ...(keyFile ? ['-i', quoted(keyFile), '-o', 'IdentitiesOnly=yes'] : []),
    '-o BatchMode=yes -o StrictHostKeyChecking=accept-new',
    `-o UserKnownHostsFile=${quoted(knownHosts)}`,
  ].join(' ')
}

/**
 * A Git repository at a ref: fetched into a bare repository of its own (`cacheDir`), one commit
 * deep and without blobs over `maxBytes` (a 2 GB file is never downloaded: its item fails with
 * why). An item's version is its blob id, so a re-sync reads only the files whose content the
 * commits changed. Symbolic links (which may point out of the tree) and submodules are not files
 * and are left out; git never asks for a password (a refused credential fails the listing).
 */
export function gitSource(
  settings: GitSettings,
  credentials: GitCredentials,
  limits: ReadLimits & {
    cacheDir: string
    fetchTimeoutMs: number
    /** The environment git runs in (PATH, HOME), read where the process reads its configuration. */
    env: NodeJS.ProcessEnv
    /** Where git may connect (the host resolved and checked before git runs). */
    policy: OutboundPolicy
  },
): SourceReader {
  const name = createHash('sha256')
    .update(`${settings.url}\0${settings.ref ?? ''}`)
    .digest('hex')
    .slice(0, 24)
  const repo = join(limits.cacheDir, `${name}.git`)
  // The server's host key as first seen, kept per source (not in the home folder, which a service's
  // user may not have): a server whose key changes afterwards is refused, as ssh refuses it.
  const knownHosts = join(limits.cacheDir, `${name}.known_hosts`)
  let keyDir: string | undefined
  let blobs: ReturnType<typeof gitBlobReader> | undefined
  // The URL checked and its host resolved by the policy once per sync; git then connects there only.
  let transport: Promise<GitTransport> | undefined
  const environment = async (): Promise<NodeJS.ProcessEnv> => {
    transport ??= gitTransport(settings.url, limits.policy, { token: credentials.token })
    const route = await transport
    let keyFile: string | undefined
    if (credentials.sshKey) {
      keyDir ??= await mkdtemp(join(tmpdir(), 'rag-git-key-'))
      keyFile = join(keyDir, 'key')
      await writeFile(keyFile, `${credentials.sshKey.trim()}\n`, { mode: 0o600 })
    }
    return {
      PATH: limits.env.PATH,
      HOME: limits.env.HOME,
      GIT_TERMINAL_PROMPT: '0',
      GIT_NO_LAZY_FETCH: '1',
      // No system or user configuration (a proxy, a URL rewrite, a credential helper of the
      // machine's), and no protocol but the source's own.
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ALLOW_PROTOCOL: route.allowProtocol,
      GIT_SSH_COMMAND: sshCommand(knownHosts, route, keyFile),
      // In the environment, not the command line (which any user of the machine can read).
      GIT_CONFIG_COUNT: String(route.config.length),
      ...Object.fromEntries(
        route.config.flatMap(([key, value], index) => [
          [`GIT_CONFIG_KEY_${index}`, key],
          [`GIT_CONFIG_VALUE_${index}`, value],
        ]),
      ),
    }
  }
  const git = async (
    args: string[],
    options: { timeoutMs: number; maxBuffer?: number; signal: AbortSignal },
  ) =>
    new Promise<Buffer>((resolve, reject) => {
      environment().then((env) => {
        execFile(
          'git',
          args,
          {
            cwd: repo,
            env,
            encoding: 'buffer',
            timeout: options.timeoutMs,
            maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
            signal: options.signal,
          },
          (error, stdout, stderr) => {
            if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT')
              reject(
                new Error('git is not installed where the sync runs (the watcher needs git for Git sources)'),
              )
            else if (error)
              reject(
                new Error(
                  gitFailure(String(stderr), {
                    hasCredential: Boolean(credentials.token || credentials.sshKey),
                    knownHosts,
                  }) || error.message,
                ),
              )
            else resolve(stdout)
          },
        )
      }, reject)
    })
  const redacted = (message: string) =>
    credentials.token ? message.replaceAll(credentials.token, '***') : message

  return {
    async *list(_known, signal) {
      const entries: { mode: string; sha: string; path: string }[] = []
      try {
        if (
          !(await access(join(repo, 'HEAD')).then(
            () => true,
            () => false,
          ))
        ) {
          await mkdir(repo, { recursive: true })
          await git(['init', '--bare', '--quiet'], { timeoutMs: limits.requestTimeoutMs, signal })
          // A named remote: the size filter makes it a promisor, which must have a name.
          await git(['remote', 'add', 'source', settings.url], { timeoutMs: limits.requestTimeoutMs, signal })
        }
        await git(['remote', 'set-url', 'source', settings.url], {
          timeoutMs: limits.requestTimeoutMs,
          signal,
        })
        await git(
          [
            'fetch',
            '--quiet',
            '--no-tags',
            '--depth=1',
            `--filter=blob:limit=${limits.maxBytes}`,
            'source',
            settings.ref ?? 'HEAD',
          ],
          { timeoutMs: limits.fetchTimeoutMs, signal },
        )
        const tree = await git(
          ['ls-tree', '-r', '-z', 'FETCH_HEAD', ...(settings.path ? ['--', settings.path] : [])],
          { timeoutMs: limits.requestTimeoutMs, signal },
        )
        for (const line of tree.toString('utf8').split('\0')) {
          const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.+)$/s.exec(line)
          if (!match) continue
          const [, mode = '', , sha = '', path = ''] = match
          if (mode === SYMLINK || mode === SUBMODULE) continue
          entries.push({ mode, sha, path })
          if (entries.length > limits.maxItems)
            throw new SourceListingError(`more than ${limits.maxItems} files in ${settings.url}`)
        }
      } catch (error) {
        if (error instanceof SourceListingError) throw error
        throw new SourceListingError(redacted(`could not fetch ${settings.url}: ${describeError(error)}`))
      }
      // Sizes of the blobs fetched; those left out by the size filter are "missing".
      const sizes = new Map<string, number>()
      // (Every object present, not a question per blob: asking for one the filter left out fails.)
      const batch = (
        await git(['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objectsize)'], {
          timeoutMs: limits.requestTimeoutMs,
          signal,
        })
      ).toString('utf8')
      for (const line of batch.split('\n')) {
        const [sha, size] = line.split(' ')
        if (sha && size) sizes.set(sha, Number(size))
      }
      for (const entry of entries)
        yield {
          key: entry.path,
          version: `blob:${entry.sha}`,
          // Not fetched: over the size limit (the filter left it on the server).
          size: sizes.get(entry.sha) ?? Number.POSITIVE_INFINITY,
          extra: { sha: entry.sha },
        } satisfies SourceItem
    },
    async read(item, maxBytes, signal) {
      if (item.size === Number.POSITIVE_INFINITY)
        throw new ItemError(`larger than the ${maxBytes} bytes allowed (not downloaded)`)
      if (item.size !== undefined && item.size > maxBytes)
        throw new ItemError(`${item.size} bytes, more than the ${maxBytes} allowed`)
      const sha = item.version.replace(/^blob:/, '')
      if (signal.aborted) throw new ItemError('the sync was stopped')
      try {
        blobs ??= gitBlobReader(repo, await environment())
        return new Uint8Array(await blobs.read(sha, limits.requestTimeoutMs))
      } catch (error) {
        throw new ItemError(`could not read it: ${describeError(error)}`)
      }
    },
    async close() {
      blobs?.close()
      if (keyDir) await rm(keyDir, { recursive: true, force: true })
    },
  }
}
