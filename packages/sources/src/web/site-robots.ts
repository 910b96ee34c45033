import type { GuardedFetcher } from '@rag/ingest'
import { WebPageError } from '@rag/ingest'
import robotsParserModule from 'robots-parser'
import { describeError, SourceListingError } from '../source-listing.ts'

/** How the platform names itself to a site's robots.txt (and in its User-Agent). */
export const ROBOTS_AGENT = 'rag-platform'

export interface Robots {
  allows(url: string): boolean
  crawlDelaySeconds: number | undefined
}

/**
 * The site's robots.txt, as RFC 9309 reads it: none there (4xx) allows everything; one the server
 * cannot give now (5xx, no answer) stops the sync — crawling as if allowed could take what the site
 * forbids, and deleting on an empty listing would lose what is indexed.
 */
export async function siteRobots(
  fetcher: GuardedFetcher,
  origin: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Robots> {
  const url = `${origin}/robots.txt`
  try {
    const response = await fetcher.get(url, { headers, takes: () => true, origin, signal })
    if (response.status !== 200) return everything
    const rules = robotsParser(url, Buffer.from(response.body).toString('utf8'))
    return {
      allows: (page) => rules.isAllowed(page, ROBOTS_AGENT) !== false,
      crawlDelaySeconds: rules.getCrawlDelay(ROBOTS_AGENT),
    }
  } catch (error) {
    if (error instanceof WebPageError) {
      const answered = error.answered
      // Not there, or elsewhere (a redirect off the site is no robots.txt of this one).
      if ((answered !== undefined && answered < 500 && answered !== 429) || error.status === 422)
        return everything
    }
    throw new SourceListingError(
      `${url} cannot be read, so the site is not crawled now: ${describeError(error)}`,
    )
  }
}

interface RobotsRules {
  isAllowed(url: string, agent: string): boolean | undefined
  getCrawlDelay(agent: string): number | undefined
}
// The package's types declare a module without its default export's call signature.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => RobotsRules

const everything: Robots = { allows: () => true, crawlDelaySeconds: undefined }
