import { BlockList, isIP } from 'node:net'

/**
 * Addresses a fetch of a user-given URL must not reach unless allowed: loopback, private networks,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, unspecified, multicast and
 * their IPv6 counterparts (IPv4-mapped ones included).
 */
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6')

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped) return PRIVATE.check(mapped, 'ipv4')
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6')
}
