import { FEEDBACK_REASONS, FEEDBACK_VERDICTS } from '@rag/api-contract/enums'
import { useEffect, useState } from 'preact/hooks'
import { api, type Feedback } from '../api.ts'
import { useApp } from '../app-context.ts'
import type { MessageKey } from '../i18n.ts'
import { CollectionSelect } from './collection-select.tsx'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { SynonymsLink } from './synonyms-link.tsx'
import { useCollections } from './use-collections.ts'

/** Feedback on answers for reviewers (editors, admins), newest first, filtered as they choose. */
export function FeedbackView() {
  const { t } = useApp()
  const [filter, setFilter] = useState({ collection: '', verdict: '', reason: '' })
  const [feedback, setFeedback] = useState<Feedback[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  // A picker, as in every other view: a misspelt name typed here would only find nothing.
  const collections = useCollections()
  useEffect(() => {
    setError(null)
    api
      .listFeedback(filter)
      .then((list) => setFeedback(list.feedback))
      .catch((failure) => setError(messageOf(failure)))
  }, [filter.collection, filter.verdict, filter.reason])

  const choose = (name: keyof typeof filter) => (event: Event) =>
    setFilter({ ...filter, [name]: (event.target as HTMLSelectElement | HTMLInputElement).value })

  return (
    <section data-testid="feedback-view">
      <h2>{t('nav.feedback')}</h2>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <CollectionSelect
          label={t('docs.collection')}
          allLabel={t('docs.allCollections')}
          collections={collections}
          value={filter.collection}
          onChange={(collection) => setFilter({ ...filter, collection })}
          testId="feedback-filter-collection"
        />
        {filter.collection ? <SynonymsLink collection={filter.collection} /> : null}
        <label>
          {t('feedback.verdict')}
          <select value={filter.verdict} onChange={choose('verdict')} data-testid="feedback-filter-verdict">
            <option value="">—</option>
            {FEEDBACK_VERDICTS.map((verdict) => (
              <option key={verdict} value={verdict}>
                {verdict === 'up' ? '👍' : '👎'}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('feedback.reason')}
          <select value={filter.reason} onChange={choose('reason')}>
            <option value="">—</option>
            {FEEDBACK_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {t(`feedback.reason.${reason}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorMessage message={error} />
      {feedback?.length === 0 ? <p class="muted">{t('feedback.none')}</p> : null}
      <ul class="feedback-list" data-testid="feedback-list">
        {(feedback ?? []).map((item) => (
          <li key={item.id} class="card">
            <p>
              {/* The verdict in words beside its emoji: without an emoji font it is an empty box. */}
              <span class="badge" data-verdict={item.verdict}>
                {item.verdict === 'up' ? `👍 ${t('feedback.upShort')}` : `👎 ${t('feedback.downShort')}`}
              </span>{' '}
              <strong>{item.question}</strong>
            </p>
            {item.reason ? <p class="badge">{t(`feedback.reason.${item.reason}` as MessageKey)}</p> : null}
            {item.comment ? <p>{item.comment}</p> : null}
            <p class="muted">{item.answer ?? ''}</p>
            <p class="muted">
              {item.sources.join(', ')} — {item.givenBy}, {new Date(item.createdAt).toLocaleString()}
            </p>
            <MakeCase feedback={item} />
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The choice that means "the documents do not say" (a source id is never empty). */
const NOT_IN_DOCUMENTS = ''

/**
 * Turns a feedback into a case of its collection's evaluation set: the right source — one that
 * came back, or any passage of the collection found by searching it — or none. Nothing is chosen
 * until the reviewer chooses: the first source offered is often the wrong one the feedback is about.
 */
function MakeCase({ feedback }: { feedback: Feedback }) {
  const { t } = useApp()
  const [source, setSource] = useState<string | null>(null)
  const [made, setMade] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<{ sourceId: string; title: string; text: string }[] | null>(null)
  const collection = feedback.collections.length === 1 ? feedback.collections[0] : undefined
  // One line per source, however many of its chunks came back.
  const retrieved = [...new Set(feedback.sources)]
  const save = async (event: Event) => {
    event.preventDefault()
    if (source === null) return
    setError(null)
    try {
      setMade((await api.makeCase(feedback.id, source === NOT_IN_DOCUMENTS ? null : source)).collection)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  const search = async () => {
    if (!query.trim()) return
    setError(null)
    try {
      const result = await api.search(query.trim(), 'hybrid', 10, collection ?? '')
      // A source once, at its best-ranked chunk.
      setFound(
        result.hits.filter(
          (hit, index) => result.hits.findIndex((other) => other.sourceId === hit.sourceId) === index,
        ),
      )
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  const choice = (value: string, label: string, preview?: string) => (
    <label key={`choice-${value}`} class="case-choice">
      <input
        type="radio"
        name={`case-${feedback.id}`}
        value={value}
        checked={source === value}
        onChange={() => setSource(value)}
      />
      <span>
        <code>{label}</code>
        {preview ? (
          <span class="muted"> {preview.length > 140 ? `${preview.slice(0, 140)}…` : preview}</span>
        ) : null}
      </span>
    </label>
  )
  return (
    <form class="make-case" onSubmit={save} data-testid="make-case">
      <fieldset>
        <legend>{t('feedback.expected')}</legend>
        {retrieved.map((id) => choice(id, id))}
        {found
          ?.filter((hit) => !retrieved.includes(hit.sourceId))
          .map((hit) => choice(hit.sourceId, hit.sourceId, hit.text))}
        {found?.length === 0 ? <p class="muted">{t('feedback.nothingFound')}</p> : null}
        {choice(NOT_IN_DOCUMENTS, t('feedback.notInDocuments'))}
      </fieldset>
      <div class="row">
        <input
          type="search"
          data-testid="case-search"
          placeholder={t('feedback.searchPlaceholder')}
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault()
              void search()
            }
          }}
        />
        <button type="button" onClick={() => void search()}>
          {t('feedback.searchSources')}
        </button>
      </div>
      <button type="submit" disabled={source === null}>
        {t('feedback.makeCase')}
      </button>
      {made ? (
        <span class="muted">
          {t('feedback.caseMade', { collection: made })} <SynonymsLink collection={made} />
        </span>
      ) : null}
      <ErrorMessage message={error} />
    </form>
  )
}
