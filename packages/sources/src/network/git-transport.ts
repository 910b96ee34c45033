import { type OutboundPolicy, resolveChecked } from './outbound-policy.ts'

/** How git reaches a repository, as a sync runs it: on the addresses checked, nowhere else. */
export interface GitTransport {
  kind: 'http' | 'ssh' | 'local'
  /** `git -c` settings (as GIT_CONFIG_KEY_n / VALUE_n), in this order. */
  config: [string, string][]
  /** The ssh options that send ssh to the checked address (kind ssh). */
  sshOptions: string[]
  /** GIT_ALLOW_PROTOCOL: the one protocol this source uses (a submodule or redirect cannot switch). */
  allowProtocol: string
}

/** A Git URL the sync will not run: the reason says why (as a sync's failure). */
export class GitUrlError extends Error {
  override name = 'GitUrlError'
}

// A host as both curl and WHATWG URL read it the same way: a name of letters, digits, dots and
// hyphens, or an address (dotted, or in brackets). Anything else in the authority — a backslash
// (`example.com\@127.0.0.1`: URL reads example.com, curl 127.0.0.1), a second `@`, a space,
// percent-escapes — is refused rather than guessed at.
const HOST = String.raw`(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)`
const HTTP_URL = new RegExp(String.raw`^(https?)://${HOST}(?::(\d{1,5}))?(/[^\s\\]*)?$`)
const SSH_URL = new RegExp(String.raw`^ssh://(?:([A-Za-z0-9._-]+)@)?${HOST}(?::(\d{1,5}))?(/[^\s\\]*)$`)
const SCP_LIKE = new RegExp(String.raw`^(?:([A-Za-z0-9._-]+)@)?${HOST}:(?!//)([^\s\\]+)$`)

const unbracketed = (host: string) => host.replace(/^\[|\]$/g, '')

/**
 * Checks a Git source's URL and resolves its host by the policy, once, before git runs; git is
 * then told to connect to those addresses only (curl's resolve list, ssh's HostName), to follow no
 * redirect, to read no system or user configuration (no proxy or URL rewriting from there), and
 * to send a token only to this URL's origin.
 */
export async function gitTransport(
  url: string,
  policy: OutboundPolicy,
  { token }: { token?: string | undefined } = {},
): Promise<GitTransport> {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\s\\\0-\x1f]/.test(url))
    throw new GitUrlError('a Git URL with spaces, backslashes or control characters is not fetched')
  const http = HTTP_URL.exec(url)
  if (http) {
    const [, scheme = 'https', host = '', port = scheme === 'https' ? '443' : '80'] = http
    const addresses = await resolveChecked(policy, unbracketed(host))
    const origin = `${scheme}://${host}${http[3] ? `:${http[3]}` : ''}/`
    const config: [string, string][] = [
      ['http.followRedirects', 'false'],
      ['http.curloptResolve', `${unbracketed(host)}:${port}:${addresses.map(bracketed).join(',')}`],
    ]
    if (token)
      config.push([
        `http.${origin}.extraHeader`,
        `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
      ])
    return { kind: 'http', config, sshOptions: [], allowProtocol: scheme }
  }
  const ssh = SSH_URL.exec(url) ?? (url.includes('://') ? null : SCP_LIKE.exec(url))
  if (ssh) {
    const host = unbracketed(ssh[2] ?? '')
    const [address] = await resolveChecked(policy, host)
    return {
      kind: 'ssh',
      config: [],
      // HostName: the address checked is the one dialled; HostKeyAlias keeps the host key under
      // the name as written; no proxy from anywhere, no configuration file of the machine's.
      sshOptions: [
        '-F /dev/null',
        `-o HostName=${address}`,
        `-o HostKeyAlias=${host}`,
        '-o ProxyCommand=none',
        '-o ProxyJump=none',
      ],
      allowProtocol: 'ssh',
    }
  }
  if (/^(https?|ssh):\/\//i.test(url))
    throw new GitUrlError(
      `${url} is not fetched: its host must be a plain name or address (no user name in an http URL, no escapes), so that it is the host git connects to`,
    )
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^file:\/\//i.test(url))
    throw new GitUrlError(
      `${url.split('://')[0]}:// is not fetched: use https:// or ssh:// (git:// cannot be kept to a checked address)`,
    )
  // A local path or file:// (only an admin adds one: routes/sources.ts): no network.
  return { kind: 'local', config: [], sshOptions: [], allowProtocol: 'file' }
}

const bracketed = (address: string) => (address.includes(':') ? `[${address}]` : address)
