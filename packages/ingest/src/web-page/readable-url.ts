import { domainToUnicode } from 'node:url'

// A run of percent-escapes: decoded when its bytes are UTF-8 text beyond ASCII.
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g

/**
 * A URL as a browser's address bar shows it and as a person reads it in a citation:
 * `https://社内.example/規程集/出張.html`, not `https://xn--...example/%E8%A6%8F...`. Only
 * letters beyond ASCII are shown as letters (an international domain, UTF-8 escapes in the path,
 * query and fragment); ASCII escapes (`%20`, `%2F`, `%25`) stay, so no two addresses read alike.
 */
export function readableUrl(href: string): string {
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return href
  }
  // The host as letters; what follows it (path, query, fragment) with its UTF-8 escapes as letters.
  const hostEnd = href.indexOf(url.host, url.protocol.length) + url.host.length
  const head = href
    .slice(0, hostEnd)
    .replace(url.hostname, url.hostname.includes('xn--') ? domainToUnicode(url.hostname) : url.hostname)
  const rest = href.slice(hostEnd)
  return head + rest.replace(ESCAPES, decodeNonAscii)
}

/** The escapes' text when it is valid UTF-8, its ASCII characters kept escaped; else the escapes. */
function decodeNonAscii(escapes: string): string {
  const bytes = Uint8Array.from(escapes.slice(1).split('%'), (hex) => Number.parseInt(hex, 16))
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return escapes
  }
  let out = ''
  let at = 0
  for (const char of text) {
    const size = new TextEncoder().encode(char).length
    // ASCII, controls and invisible or spacing characters beyond ASCII stay escaped.
    out +=
      /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(char) && char.charCodeAt(0) > 0x7f
        ? char
        : escapes.slice(at * 3, (at + size) * 3)
    at += size
  }
  return out
}
