import { FEEDBACK_REASONS, FEEDBACK_VERDICTS } from '@rag/api-contract/enums'
import { useEffect, useState } from 'preact/hooks'
import { api, type Feedback } from '../api.ts'
import { useApp } from '../app-context.ts'
import type { MessageKey } from '../i18n.ts'
import { CollectionSelect } from './collection-select.tsx'
import { ErrorMessage, messageOf } from './error-message.tsx'
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
              <span role="img" aria-label={t(item.verdict === 'up' ? 'feedback.up' : 'feedback.down')}>
                {item.verdict === 'up' ? '👍' : '👎'}
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

/** Turns a feedback into a case of its collection's evaluation set: the right source, or none. */
function MakeCase({ feedback }: { feedback: Feedback }) {
  const { t } = useApp()
  const [source, setSource] = useState(feedback.sources[0] ?? '')
  const [made, setMade] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const save = async (event: Event) => {
    event.preventDefault()
    setError(null)
    try {
      setMade((await api.makeCase(feedback.id, source === '' ? null : source)).collection)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  return (
    <form class="make-case" onSubmit={save} data-testid="make-case">
      <label>
        {t('feedback.expected')}
        <select value={source} onChange={(event) => setSource((event.target as HTMLSelectElement).value)}>
          {feedback.sources.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
          <option value="">{t('feedback.notInDocuments')}</option>
        </select>
      </label>
      <button type="submit">{t('feedback.makeCase')}</button>
      {made ? <span class="muted">{t('feedback.caseMade', { collection: made })}</span> : null}
      <ErrorMessage message={error} />
    </form>
  )
}
