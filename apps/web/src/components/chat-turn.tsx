import { isQuestionFinished } from '@rag/api-contract/enums'
import type { Question } from '../api.ts'
import { useApp } from '../app-context.ts'
import { citationPieces, queryTerms } from '../highlight.ts'
import { questionStatusLabel } from '../i18n.ts'
import { DegradedNotice } from './degraded-notice.tsx'
import { FeedbackButtons } from './feedback-buttons.tsx'
import { PassageCard } from './passage-card.tsx'
import { DecisionWhyPanel } from './why-panel.tsx'

/** A turn as it is being answered: the question, its status, the answer written so far. */
export interface LiveTurn {
  id: string
  question: string
  status: string
  answer: string
  /** The finished question (rewritten query, sources, citations), once done. */
  result: Question | null
  /** The extractive answer shown while the LLM writes its own (replaced by its first token). */
  provisional?: Question | null
  queue?: Question['queue']
}

/** One turn of a conversation: the question, the query it was rewritten to, the answer with its [n] sources. */
export function ChatTurn({
  turn,
  explainDegraded = true,
}: {
  turn: LiveTurn
  /** Whether to explain what was missing (false: the turn before said the same; a quiet marker then). */
  explainDegraded?: boolean
}) {
  const { t } = useApp()
  const { result } = turn
  const showingProvisional = !result && turn.answer === '' && Boolean(turn.provisional?.answer)
  const shown = showingProvisional ? (turn.provisional?.answer ?? '') : turn.answer
  const anchor = (marker: number) => `turn-${turn.id}-source-${marker}`
  return (
    <li class="turn" data-testid="turn" data-status={turn.status}>
      <p class="user-message">{turn.question}</p>
      {result?.searchQuery && result.searchQuery !== turn.question ? (
        <p class="muted" data-testid="rewritten-query">
          {t('chat.rewritten', { query: result.searchQuery })}
        </p>
      ) : null}
      <article class="card answer">
        {!isQuestionFinished(turn.status) ? (
          <p class="muted">{t('ask.status', { status: questionStatusLabel(t, turn.status) })}</p>
        ) : null}
        {turn.queue && !result ? (
          <p class="muted">
            {t('ask.queue', { position: turn.queue.position, seconds: turn.queue.estimatedWaitSeconds })}
          </p>
        ) : null}
        {showingProvisional ? <span class="badge">{t('ask.provisional')}</span> : null}
        {result?.refused ? <span class="badge failed">{t('ask.refused')}</span> : null}
        {result?.status === 'failed' ? (
          <p class="error">{t('ask.failed', { error: result.error ?? '' })}</p>
        ) : null}
        <p class="answer-text">
          {citationPieces(shown).map((piece, index) =>
            'marker' in piece ? (
              <a key={index} class="citation" href={`#${anchor(piece.marker)}`}>
                [{piece.marker}]
              </a>
            ) : (
              piece.text
            ),
          )}
        </p>
        {result && explainDegraded ? <DegradedNotice degraded={result.degraded} /> : null}
        {result && !explainDegraded && result.degraded.length > 0 ? (
          <p class="muted" data-testid="degraded-same">
            {t('degraded.same')}
          </p>
        ) : null}
        {result?.status === 'done' && result.answerability ? (
          <DecisionWhyPanel answerability={result.answerability} refused={result.refused === true} />
        ) : null}
        {result?.status === 'done' ? <FeedbackButtons questionId={result.id} /> : null}
      </article>
      {result && result.sources.length > 0 ? (
        <details class="turn-sources">
          <summary>
            {t(result.refused ? 'chat.lookedAt' : 'chat.sources', { n: result.sources.length })}
          </summary>
          <ol
            class="sources"
            data-testid="turn-sources"
            data-looked-at={result.refused ? 'not-enough' : undefined}
          >
            {result.sources.map((source) => (
              <PassageCard
                key={source.rank}
                passage={source}
                terms={queryTerms(result.searchQuery ?? turn.question)}
                quotes={result.citations.find((citation) => citation.marker === source.rank)?.quotes}
                anchor={anchor(source.rank)}
              />
            ))}
          </ol>
        </details>
      ) : null}
    </li>
  )
}
