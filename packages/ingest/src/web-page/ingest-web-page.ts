import type { IngestDeps } from '../ingest-deps.ts'
import { type RegisterOptions, type RegisterOutcome, registerDocument } from '../register-document.ts'
import { fetchWebPage, type WebFetchLimits } from './fetch-web-page.ts'

/**
 * A web page as a document: fetched within the limits, then registered like an upload, named and
 * cited by its URL (fragment dropped), read as HTML. The same page unchanged is a no-op; changed,
 * it is ingested again.
 */
export async function ingestWebPage(
  deps: IngestDeps,
  options: RegisterOptions & { webPages: Omit<WebFetchLimits, 'maxBytes'> },
  { url, collection }: { url: string; collection?: string },
): Promise<RegisterOutcome> {
  const page = await fetchWebPage(url, { ...options.webPages, maxBytes: options.maxBytes })
  const name = new URL(url)
  name.hash = ''
  return registerDocument(deps, options, {
    filename: name.href,
    sourceUrl: name.href,
    data: page.html,
    collection,
  })
}
