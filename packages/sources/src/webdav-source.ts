import { createClient, type FileStat, type WebDAVClient } from 'webdav'
import { guardedAgents } from './network/guarded-agents.ts'
import type { OutboundPolicy } from './network/outbound-policy.ts'
import {
  describeError,
  ItemError,
  type ReadLimits,
  type SourceItem,
  SourceListingError,
  type SourceReader,
} from './source-listing.ts'

export interface WebdavSettings {
  /** The folder's URL on the server (SharePoint, Nextcloud, Box and Apache all speak WebDAV). */
  url: string
}

export interface WebdavCredentials {
  username?: string
  password?: string
}

/**
 * A WebDAV folder, walked one PROPFIND (depth 1) per folder as every server allows (depth
 * infinity is often refused); an item's version is its ETag, else its last modification time.
 * Its connections go through the policy's agents, to the folder's server only: a redirect
 * elsewhere fails before it connects, the password with it.
 */
export function webdavSource(
  settings: WebdavSettings,
  credentials: WebdavCredentials,
  limits: ReadLimits & { policy: OutboundPolicy },
): SourceReader {
  const base = new URL(settings.url)
  const agents = guardedAgents(limits.policy, base)
  const client: WebDAVClient = createClient(`${base.origin}`, {
    ...(credentials.username ? { username: credentials.username, password: credentials.password ?? '' } : {}),
    maxContentLength: limits.maxBytes,
    httpAgent: agents.httpAgent,
    httpsAgent: agents.httpsAgent,
  })
  const root = decodeURIComponent(base.pathname).replace(/\/?$/, '/')
  const timed = (signal: AbortSignal) =>
    AbortSignal.any([signal, AbortSignal.timeout(limits.requestTimeoutMs)])
  return {
    async *list(_known, signal) {
      const folders = [root]
      let count = 0
      while (folders.length > 0) {
        const folder = folders.shift() as string
        let entries: FileStat[]
        try {
          entries = (await client.getDirectoryContents(folder, { signal: timed(signal) })) as FileStat[]
        } catch (error) {
          throw new SourceListingError(`could not list ${folder} on ${base.host}: ${describeError(error)}`)
        }
        for (const entry of entries) {
          if (entry.type === 'directory') {
            folders.push(entry.filename.replace(/\/?$/, '/'))
            continue
          }
          if (++count > limits.maxItems)
            throw new SourceListingError(`more than ${limits.maxItems} files under ${settings.url}`)
          yield {
            key: entry.filename.slice(root.length),
            version: entry.etag ? `etag:${entry.etag}` : `modified:${entry.lastmod}`,
            size: entry.size,
          } satisfies SourceItem
        }
      }
    },
    async read(item, maxBytes, signal) {
      if (item.size !== undefined && item.size > maxBytes)
        throw new ItemError(`${item.size} bytes, more than the ${maxBytes} allowed`)
      try {
        const data = (await client.getFileContents(`${root}${item.key}`, {
          format: 'binary',
          signal: timed(signal),
        })) as Uint8Array
        if (data.byteLength > maxBytes) throw new ItemError(`more than the ${maxBytes} bytes allowed`)
        return new Uint8Array(data)
      } catch (error) {
        if (error instanceof ItemError) throw error
        throw new ItemError(`could not read it: ${describeError(error)}`)
      }
    },
    async close() {
      agents.destroy()
    },
  }
}
