/** Hosts that reach this machine only. */
const LOOPBACK = ['127.0.0.1', '::1', 'localhost']

/** Where the gateway listens, and what it must say about it at start. */
export interface ListeningHost {
  host: string
  /** Said at warn level: a setting that is not what it seems. */
  warnings: string[]
  /** Said at info level. */
  notes: string[]
}

/**
 * Without an API key nothing but this machine may reach the gateway (every request acts as the
 * local admin), whatever GATEWAY_HOST asks; with keys, a short one is open to guessing on a network.
 */
export function listeningHost(apiKeys: string[], requested: string): ListeningHost {
  if (apiKeys.length === 0) {
    const said =
      'no API_KEY set: listening on loopback only; every request acts as the local admin (any bearer string included), a key made with `rag keys create` is held to its role when presented; set API_KEY to require keys'
    return requested === '127.0.0.1'
      ? { host: '127.0.0.1', warnings: [], notes: [said] }
      : { host: '127.0.0.1', warnings: [`${said} (GATEWAY_HOST=${requested} is not used)`], notes: [] }
  }
  const shortKeys = apiKeys.filter((key) => key.length < 16).length
  return {
    host: requested,
    warnings:
      shortKeys > 0 && !LOOPBACK.includes(requested)
        ? [
            `API_KEY: ${shortKeys} key(s) shorter than 16 characters, open to guessing on a network; use e.g. \`openssl rand -hex 24\``,
          ]
        : [],
    notes: [],
  }
}
