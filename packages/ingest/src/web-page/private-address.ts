import { networkInterfaces } from 'node:os'
import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/**
 * The IPv4 address an IPv6 one carries: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
 * (::a.b.c.d, deprecated by RFC 4291 but still dialled as the IPv4 address by Linux),
 * IPv4-translated (::ffff:0:a.b.c.d, RFC 2765), NAT64 (64:ff9b::/96, RFC 6052) and 6to4
 * (2002::/16). A fetch through them reaches that IPv4 address, so it is that one that is judged.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address()
  const bytes = address.toByteArray()
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0)
  // ::/96 but :: and ::1 themselves (unspecified and loopback, judged as they are).
  if (zeros(0, 12) && !zeros(12, 15)) return new ipaddr.IPv4(bytes.slice(12, 16))
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12))
    return new ipaddr.IPv4(bytes.slice(12, 16))
  if (address.range() === 'rfc6052') return new ipaddr.IPv4(bytes.slice(12, 16))
  if (address.range() === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6))
  return null
}

/** This machine's own addresses (its interfaces'): a page "elsewhere" that is in fact here. */
export function ownAddresses(): Set<string> {
  const own = new Set<string>()
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? [])
      if (ipaddr.isValid(entry.address)) own.add(normalised(ipaddr.parse(entry.address)))
  return own
}

const normalised = (address: Address) => address.toNormalizedString()

/**
 * Addresses a fetch of a user-given URL must not reach unless allowed: every special-purpose range
 * (ipaddr.js's table of the IANA registries: loopback, private, link-local with cloud metadata at
 * 169.254.169.254, carrier-grade NAT, unspecified, multicast, broadcast, reserved, documentation
 * and benchmarking ranges, unique-local, Teredo, …), an IPv4 address inside an IPv6 one judged as
 * itself, and this machine's own addresses. Only plain public unicast passes.
 */
export function isPrivateAddress(address: string, own: Set<string> = ownAddresses()): boolean {
  if (!ipaddr.isValid(address)) return false
  let parsed: Address = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6') parsed = embeddedIpv4(parsed as ipaddr.IPv6) ?? parsed
  if (parsed.range() !== 'unicast') return true
  return own.has(normalised(parsed))
}
