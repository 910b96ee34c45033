/**
 * What went wrong, from what git printed: its lines that say so (not its boilerplate), led by a
 * sentence naming the cause when it is one a person can act on — a credential refused, a host
 * key that changed — since "could not read Username: terminal prompts disabled" says neither.
 */
export function gitFailure(
  stderr: string,
  { hasCredential, knownHosts }: { hasCredential: boolean; knownHosts: string },
): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(
      (line) =>
        line &&
        !/^(Please make sure you have the correct access rights|and the repository exists\.)/.test(line) &&
        !/^@+$/.test(line),
    )
  const said = lines.slice(-3).join(' ')
  const cause = (() => {
    if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/i.test(stderr))
      return `the server’s host key changed since the first sync (a new server, or someone in between): if the new key is right, delete ${knownHosts} and sync again`
    if (/Permission denied \(publickey/.test(stderr))
      return hasCredential
        ? 'the server refused the source’s ssh key'
        : 'the server wants an ssh key: give the source one'
    if (/could not read (Username|Password)|Authentication failed|HTTP 401|HTTP 403/i.test(stderr))
      return hasCredential
        ? 'the server refused the source’s token (expired, revoked, or without access to this repository)'
        : 'the server wants a token: give the source one'
    if (/returned error: 30[1278]/.test(stderr))
      return 'the server redirects elsewhere, and a sync follows no redirect (give the source the address it redirects to)'
    return undefined
  })()
  return cause ? `${cause} (git: ${said})` : said
}
