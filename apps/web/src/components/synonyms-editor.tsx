import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { useApp } from '../app-context.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'

/** A collection's own synonyms (Solr format), edited in place: saved rules apply from the next question. */
export function SynonymsEditor({ collection, focus = false }: { collection: string; focus?: boolean }) {
  const { t } = useApp()
  const area = useRef<HTMLTextAreaElement>(null)
  const [rules, setRules] = useState('')
  const [saved, setSaved] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  // Not editable until the saved rules are in: typed text would be replaced by them when they came.
  const [loaded, setLoaded] = useState(false)
  useEffect(() => {
    setSaved(null)
    setError(null)
    setLoaded(false)
    api
      .synonyms(collection)
      .then((current) => {
        setRules(current.rules)
        setLoaded(true)
      })
      .catch((failure) => setError(messageOf(failure)))
  }, [collection])
  // Reached by a link to it: in view and ready to type into once the saved rules are in.
  useEffect(() => {
    if (!focus || !loaded) return
    area.current?.scrollIntoView({ block: 'center' })
    area.current?.focus()
  }, [focus, loaded])

  const save = async (event: Event) => {
    event.preventDefault()
    setError(null)
    setSaved(null)
    try {
      setSaved((await api.saveSynonyms(collection, rules)).ruleCount)
    } catch (failure) {
      // The server names the line of a rule it cannot read.
      setError(messageOf(failure))
    }
  }

  return (
    <form class="card synonyms" onSubmit={save} data-testid="synonyms-editor">
      <h3>{t('synonyms.title', { collection })}</h3>
      <p class="muted">{t('synonyms.help')}</p>
      <textarea
        ref={area}
        rows={6}
        value={rules}
        data-testid="synonyms-rules"
        disabled={!loaded}
        onInput={(event) => setRules(event.currentTarget.value)}
      />
      <button type="submit" data-action="save-synonyms" disabled={!loaded}>
        {t('synonyms.save')}
      </button>
      {saved !== null ? (
        <span class="muted" data-testid="synonyms-saved">
          {' '}
          {t('synonyms.saved', { count: String(saved) })}
        </span>
      ) : null}
      <ErrorMessage message={error} />
    </form>
  )
}
