import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import {
  addressAllowed,
  type OutboundPolicy,
  RefusedAddressError,
  resolveChecked,
} from './outbound-policy.ts'

/** The failure a refused connection carries to its caller (the sync's reason says it as is). */
const refusal = (error: unknown) =>
  Object.assign(error instanceof Error ? error : new Error(String(error)), { code: 'EREFUSED_ADDRESS' })

/** node's `lookup`, answered by the policy: a name's addresses, each checked, or the refusal. */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(policy, hostname).then(
      (addresses) => {
        const family = (address: string) => (address.includes(':') ? 6 : 4)
        if (options.all)
          callback(
            null,
            addresses.map((address) => ({ address, family: family(address) })),
          )
        else callback(null, addresses[0] as string, family(addresses[0] as string))
      },
      (error: unknown) => callback(refusal(error) as NodeJS.ErrnoException, '', 4),
    )
  }
}

export interface GuardedAgents {
  httpAgent: HttpAgent
  httpsAgent: HttpsAgent
  destroy(): void
}

/**
 * http and https agents for a source's client library (WebDAV, S3): every connection's host
 * resolved and checked by the policy as it is made, and, with `origin`, only to that origin (a
 * redirect to another host or port is refused before it connects, so credentials sent to the
 * source's server never leave it).
 */
export function guardedAgents(policy: OutboundPolicy, origin?: URL): GuardedAgents {
  const lookup = guardedLookup(policy)
  const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80')
  const expected = origin
    ? { host: origin.hostname.replace(/^\[|\]$/g, ''), port: origin.port || defaultPort(origin.protocol) }
    : undefined
  const guard = <T extends HttpAgent>(agent: T, protocol: string): T => {
    const create = agent.createConnection.bind(agent)
    agent.createConnection = ((
      options: { host?: string; port?: number | string },
      callback: (error: Error | null, socket?: unknown) => void,
    ) => {
      const host = String(options.host ?? '').replace(/^\[|\]$/g, '')
      const port = String(options.port ?? defaultPort(protocol))
      let refused: Error | undefined
      if (expected && (host !== expected.host || port !== expected.port))
        refused = new Error(`${host}:${port} is not the source's server (${expected.host}:${expected.port})`)
      // node dials an address as written without asking `lookup`: it is checked here.
      else if (isIP(host) && !addressAllowed(policy, host, host))
        refused = new RefusedAddressError(host, host)
      if (refused) {
        // Through the callback: the request fails with it, as a failed connection does.
        process.nextTick(() => callback(refusal(refused)))
        return undefined
      }
      return (create as (...args: unknown[]) => unknown)(options, callback)
    }) as typeof agent.createConnection
    return agent
  }
  const httpAgent = guard(new HttpAgent({ keepAlive: true, lookup }), 'http:')
  const httpsAgent = guard(new HttpsAgent({ keepAlive: true, lookup }), 'https:')
  return {
    httpAgent,
    httpsAgent,
    destroy: () => {
      httpAgent.destroy()
      httpsAgent.destroy()
    },
  }
}
