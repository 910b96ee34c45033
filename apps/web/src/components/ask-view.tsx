import { isQuestionFinished, shortAnswerLine } from '@rag/api-contract/enums'
import { MAX_QUESTION_CHARS } from '@rag/api-contract/limits'
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type Question } from '../api.ts'
import { useApp } from '../app-context.ts'
import { followAnswer } from '../ask-stream.ts'
import { citationPieces, queryTerms } from '../highlight.ts'
import { questionStatusLabel } from '../i18n.ts'
import { askOptions } from '../settings.ts'
import { SearchScope } from './collection-select.tsx'
import { DegradedNotice } from './degraded-notice.tsx'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { FeedbackButtons } from './feedback-buttons.tsx'
import { PassageCard } from './passage-card.tsx'
import { useCollections } from './use-collections.ts'
import { DecisionWhyPanel } from './why-panel.tsx'

/** Ask box: the answer streams in as it is written, then its cited sources. */
export function AskView() {
  const { t, settings } = useApp()
  const [question, setQuestion] = useState('')
  const [asked, setAsked] = useState('')
  const [status, setStatus] = useState<string | null>(null)
  const [answer, setAnswer] = useState('')
  const [result, setResult] = useState<Question | null>(null)
  // The extractive answer shown at once while the LLM writes; its first token replaces it.
  const [provisional, setProvisional] = useState<Question | null>(null)
  const [queue, setQueue] = useState<Question['queue']>(null)
  const [error, setError] = useState<string | null>(null)
  const stop = useRef<(() => void) | null>(null)
  const collections = useCollections()
  const [collection, setCollection] = useState('')
  useEffect(() => () => stop.current?.(), [])

  // A second press while the question is on its way would follow two answers into one (their
  // tokens interleaved): it is ignored until the gateway has taken the first.
  const sending = useRef(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (sending.current) return
    stop.current?.()
    setAnswer('')
    setResult(null)
    setProvisional(null)
    setQueue(null)
    setStatus(null)
    setError(null)
    if (question.trim() === '') return setError(t('ask.empty'))
    sending.current = true
    try {
      const { id } = await api.ask(question, {
        ...askOptions(settings),
        ...(collection ? { collection } : {}),
      })
      setAsked(question)
      setStatus('queued')
      stop.current = followAnswer(id, {
        status: setStatus,
        provisional: setProvisional,
        queue: setQueue,
        token: (text) => setAnswer((current) => current + text),
        restart: () => setAnswer(''),
        done: (final) => {
          setResult(final)
          setStatus(final.status)
          if (final.answer !== null) setAnswer(final.answer)
          if (final.status === 'failed') setError(t('ask.failed', { error: final.error ?? '' }))
        },
        error: (message) => setError(message),
      })
    } catch (failure) {
      setError(messageOf(failure))
    } finally {
      sending.current = false
    }
  }

  const terms = queryTerms(asked)
  // Until the LLM's first token, the provisional answer and its sources stand in.
  const showingProvisional = !result && answer === '' && provisional?.answer
  const shown = showingProvisional ? (provisional?.answer ?? '') : answer
  // The passages stay listed while the LLM writes (they are what it reads); the provisional
  // answer's quotes are marked only while it stands in.
  const cited = result ?? provisional
  const quoted = result ?? (showingProvisional ? provisional : null)
  return (
    <section>
      <form class="ask" onSubmit={submit}>
        <textarea
          rows={3}
          maxLength={MAX_QUESTION_CHARS}
          placeholder={t('ask.placeholder')}
          value={question}
          data-testid="question"
          onInput={(event) => setQuestion(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit(event)
          }}
        />
        <button type="submit">{t('ask.submit')}</button>
      </form>
      <SearchScope
        collections={collections}
        value={collection}
        onChange={setCollection}
        testId="ask-collection"
      />
      <ErrorMessage message={error} testId="ask-error" />
      {status && !isQuestionFinished(status) ? (
        <p class="muted" data-testid="ask-status">
          {t('ask.status', { status: questionStatusLabel(t, status) })}
        </p>
      ) : null}
      {queue && !result ? (
        <p class="muted" data-testid="ask-queue">
          {t('ask.queue', { position: queue.position, seconds: queue.estimatedWaitSeconds })}
        </p>
      ) : null}
      {shown || result ? (
        <article
          class={`card answer${showingProvisional ? ' provisional' : ''}`}
          data-testid="answer"
          data-status={status ?? ''}
          data-provisional={showingProvisional ? 'true' : 'false'}
        >
          <h2>{t('ask.answer')}</h2>
          {showingProvisional ? <span class="badge">{t('ask.provisional')}</span> : null}
          {result?.refused ? <span class="badge failed">{t('ask.refused')}</span> : null}
          <p class="answer-text">
            {citationPieces(shown).map((piece, index) =>
              'marker' in piece ? (
                <a
                  key={index}
                  class="citation"
                  href={`#source-${piece.marker}`}
                  onClick={scrollTo(piece.marker)}
                >
                  [{piece.marker}]
                </a>
              ) : (
                piece.text
              ),
            )}
          </p>
          {result && !result.refused && result.citations[0]?.span ? (
            <p class="short-answer" data-testid="short-answer" data-type={result.citations[0].spanType ?? ''}>
              {shortAnswerLine(
                result.citations[0].span,
                result.citations[0].spanType,
                /[\u3040-\u30ff\u4e00-\u9fff]/u.test(result.question) ? 'ja' : 'en',
              )}
            </p>
          ) : null}
          {result?.queries?.length ? (
            <p class="muted">{t('ask.queries', { queries: result.queries.join(' / ') })}</p>
          ) : null}
          {result?.timings.totalMs !== undefined ? (
            <p class="muted">{t('ask.took', { seconds: (result.timings.totalMs / 1000).toFixed(1) })}</p>
          ) : null}
          {result?.status === 'done' && result.answerability ? (
            <DecisionWhyPanel answerability={result.answerability} refused={result.refused === true} />
          ) : null}
          {result ? <DegradedNotice degraded={result.degraded} /> : null}
          {result?.status === 'done' ? <FeedbackButtons questionId={result.id} /> : null}
        </article>
      ) : null}
      {cited && (!cited.refused || cited.sources.length > 0) ? (
        <section>
          {/* A refusal keeps the passages it looked at, to open and judge: marked as not enough. */}
          <h2>{t(cited.refused ? 'ask.lookedAt' : 'ask.sources')}</h2>
          {cited.sources.length === 0 ? <p class="muted">{t('ask.noSources')}</p> : null}
          <ol class="sources" data-testid="sources" data-looked-at={cited.refused ? 'not-enough' : undefined}>
            {cited.sources.map((source) => (
              <PassageCard
                key={source.rank}
                passage={source}
                terms={terms}
                quotes={quoted?.citations.find((citation) => citation.marker === source.rank)?.quotes}
                anchor={`source-${source.rank}`}
              />
            ))}
          </ol>
        </section>
      ) : null}
    </section>
  )
}

// The view lives under #/ask, so a citation scrolls instead of changing the hash.
const scrollTo = (marker: number) => (event: Event) => {
  event.preventDefault()
  document.getElementById(`source-${marker}`)?.scrollIntoView({ behavior: 'smooth', block: 'center' })
}
