import { useState } from 'preact/hooks'
import { api, type SearchResult } from '../api.ts'
import { useApp } from '../app-context.ts'
import { queryTerms } from '../highlight.ts'
import { SearchScope } from './collection-select.tsx'
import { DegradedNotice } from './degraded-notice.tsx'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { PassageCard } from './passage-card.tsx'
import { useCollections } from './use-collections.ts'

/** Search only: ranked passages with their sources, no answer written. */
export function SearchView() {
  const { t, settings } = useApp()
  const [query, setQuery] = useState('')
  const [searched, setSearched] = useState('')
  const [result, setResult] = useState<SearchResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const collections = useCollections()
  const [collection, setCollection] = useState('')
  const submit = async (event: Event) => {
    event.preventDefault()
    setError(null)
    if (query.trim() === '') return setError(t('ask.empty'))
    try {
      setResult(await api.search(query, settings.mode, settings.topK, collection))
      setSearched(query)
    } catch (failure) {
      setResult(null)
      setError(messageOf(failure))
    }
  }
  const terms = queryTerms(searched)
  return (
    <section>
      <form class="ask" onSubmit={submit}>
        <input
          type="search"
          placeholder={t('search.placeholder')}
          value={query}
          data-testid="search-query"
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
        <button type="submit">{t('search.submit')}</button>
      </form>
      <SearchScope
        collections={collections}
        value={collection}
        onChange={setCollection}
        testId="search-collection"
      />
      <ErrorMessage message={error} />
      {result ? <DegradedNotice degraded={result.degraded} /> : null}
      {result && result.hits.length === 0 ? <p class="muted">{t('search.none')}</p> : null}
      <ol class="sources" data-testid="hits">
        {result?.hits.map((hit) => (
          <PassageCard key={hit.rank} passage={hit} terms={terms} />
        ))}
      </ol>
    </section>
  )
}
