import { isIP } from 'node:net'
import type { SourceKind } from '@rag/api-contract'

const PRIVATE_V4 = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^0\./]

/** Whether a host name is this machine or a private network's, as written (not resolved). */
function isPrivateHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (/^localhost\.?$/.test(bare) || bare.endsWith('.localhost')) return true
  if (isIP(bare) === 4) return PRIVATE_V4.some((range) => range.test(bare))
  if (isIP(bare) === 6)
    return bare === '::1' || /^f[cd]/.test(bare) || /^fe80:/.test(bare) || bare.startsWith('::ffff:')
  return false
}

/**
 * Whether a source reaches this machine or its private network: a Git repository by a local
 * path (or file://), a URL to loopback or a private address, or a host of SOURCES_ALLOW_PRIVATE.
 * Only an admin adds such a source — an editor must not make the server read its own disk or
 * reach what only it can reach. (A name that only resolves to a private address passes here and
 * is refused when a sync connects: network/outbound-policy.ts.)
 */
export function placeIsPrivate(
  kind: SourceKind,
  settings: Record<string, unknown>,
  allowPrivate: readonly string[] = [],
): boolean {
  const address = String((kind === 's3' ? settings.endpoint : settings.url) ?? '')
  if (kind === 's3' && !address) return false
  const listed = (host: string) =>
    allowPrivate.some((entry) => entry.toLowerCase() === host.replace(/^\[|\]$/g, '').toLowerCase())
  const judged = (host: string) => isPrivateHost(host) || listed(host)
  if (kind === 'git') {
    if (/^[\w.-]+@[\w.-]+:/.test(address)) return judged(address.split('@')[1]?.split(':')[0] ?? '')
    if (!/^(https?|ssh|git):\/\//i.test(address)) return true
  }
  try {
    return judged(new URL(address).hostname)
  } catch {
    return true
  }
}
