import { lookup } from 'node:dns/promises'
import { isPrivateAddress } from '@rag/ingest'
import ipaddr from 'ipaddr.js'

/**
 * Where a source's connections may go: public addresses, and the private ones an admin listed
 * (SOURCES_ALLOW_PRIVATE). Every outbound connection a sync makes — web, WebDAV, S3, Git over
 * HTTP(S) and ssh — resolves its host and checks every address here, at connect time, so a name
 * that resolves to loopback, the cloud's metadata address or the office network is refused however
 * the URL spells it.
 */
export interface OutboundPolicy {
  /**
   * Host names, addresses and CIDR ranges (`nas.corp`, `10.0.0.5`, `10.1.0.0/16`) sources may
   * reach although private. Empty (the default): none.
   */
  allowPrivate: readonly string[]
  /** Every address of a host name (default: the system's resolver, as curl and ssh would use). */
  resolve?: (host: string) => Promise<string[]>
  /** Which addresses are private (default: every special-purpose range and this machine's own). */
  isPrivate?: (address: string) => boolean
}

/** A connection the policy refuses: the reason names the host, the address and the rule. */
export class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host === address ? address : `${host} resolves to ${address}`}, a private address: sources reach ` +
        'only public addresses, unless an admin lists the host in SOURCES_ALLOW_PRIVATE',
    )
    this.name = 'RefusedAddressError'
  }
}

const bare = (host: string) =>
  host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '')

const systemResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

/** Whether the policy lets a connection for `host` reach `address`. */
export function addressAllowed(policy: OutboundPolicy, host: string, address: string): boolean {
  const isPrivate = policy.isPrivate ?? ((candidate: string) => isPrivateAddress(candidate))
  if (!isPrivate(address)) return true
  const name = bare(host)
  return policy.allowPrivate.some((entry) => {
    const allowed = bare(entry)
    if (allowed === name || allowed === bare(address)) return true
    if (!allowed.includes('/') || !ipaddr.isValid(bare(address))) return false
    try {
      const [range, bits] = ipaddr.parseCIDR(allowed)
      const parsed = ipaddr.process(bare(address))
      return parsed.kind() === range.kind() && parsed.match(range, bits)
    } catch {
      return false
    }
  })
}

/**
 * Every address `host` resolves to, each checked: one refused refuses the host (a name with a
 * public and a private address must not be dialled on whichever answers first).
 */
export async function resolveChecked(policy: OutboundPolicy, host: string): Promise<string[]> {
  const name = bare(host)
  const addresses = ipaddr.isValid(name) ? [name] : await (policy.resolve ?? systemResolve)(name)
  if (addresses.length === 0) throw new Error(`${host} does not resolve`)
  const refused = addresses.find((address) => !addressAllowed(policy, name, address))
  if (refused !== undefined) throw new RefusedAddressError(name, refused)
  return addresses
}
