import { parseSentinelUrl } from '@rag/config'
import { Redis } from 'ioredis'

/** What one sentinel says the primary is, or why it said nothing. */
export interface SentinelView {
  sentinel: string
  /** host:port of the primary, as this sentinel has it. */
  primary?: string
  error?: string
}

export interface SentinelProblem {
  message: string
  views: SentinelView[]
}

const ask = async ({ host, port }: { host: string; port: number }, name: string, password?: string) => {
  const client = new Redis({
    host,
    port,
    password,
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  client.on('error', () => undefined)
  try {
    await client.connect()
    const answer = (await client.call('SENTINEL', 'get-master-addr-by-name', name)) as [string, string] | null
    return answer ? `${answer[0]}:${answer[1]}` : null
  } finally {
    client.disconnect()
  }
}

/**
 * Asks every sentinel of a redis-sentinel:// address which server is the primary. Clients take the
 * first answer whose server says it is a primary (ioredis checks the role), so a sentinel with a
 * stale view costs a reconnect, not a wrong write; but sentinels that disagree, or do not answer,
 * are a quorum at risk: the operator should hear of it. None for a plain redis:// address.
 */
export async function checkSentinels(url: string): Promise<SentinelProblem[]> {
  const address = parseSentinelUrl(url)
  if (!address) return []
  const views: SentinelView[] = await Promise.all(
    address.sentinels.map(async (sentinel) => {
      const at = `${sentinel.host}:${sentinel.port}`
      try {
        const primary = await ask(sentinel, address.name, address.password)
        return primary
          ? { sentinel: at, primary }
          : { sentinel: at, error: `does not monitor ${address.name}` }
      } catch (error) {
        return { sentinel: at, error: error instanceof Error ? error.message : String(error) }
      }
    }),
  )
  const problems: SentinelProblem[] = []
  const silent = views.filter((view) => view.error)
  if (silent.length > 0)
    problems.push({
      views: silent,
      message: `${silent.length} of ${views.length} Redis sentinels give no primary for ${address.name} (${silent.map((view) => `${view.sentinel}: ${view.error}`).join('; ')}): a failover needs a quorum of them`,
    })
  const primaries = new Set(views.flatMap((view) => (view.primary ? [view.primary] : [])))
  if (primaries.size > 1)
    problems.push({
      views: views.filter((view) => view.primary),
      message: `Redis sentinels disagree on the primary of ${address.name} (${views
        .filter((view) => view.primary)
        .map((view) => `${view.sentinel} says ${view.primary}`)
        .join(', ')}): clients use the one that answers as a primary; check the sentinels' monitor settings`,
    })
  return problems
}
