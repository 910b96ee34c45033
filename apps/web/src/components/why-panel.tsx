import type { Question } from '../api.ts'
import { useApp } from '../app-context.ts'
import { isMessageKey, type Translate } from '../i18n.ts'

type SourceWhy = NonNullable<Question['sources'][number]['why']>
type Answerability = NonNullable<Question['answerability']>

const percent = (probability: number) => `${Math.round(probability * 100)}%`

/** A signal in words (one the page does not know yet shows as the API names it). */
function signalLabel(t: Translate, name: string): string {
  const key = `signal.${name}`
  return isMessageKey(key) ? t(key) : name
}

/**
 * Why a passage was found, in sentences: the question's words it says (and through which
 * synonyms), where each search ranked it, and the reranker's judgement when one ran.
 */
export function SourceWhyPanel({ why, byMeaningOnly }: { why: SourceWhy; byMeaningOnly: boolean }) {
  const { t } = useApp()
  const ranks = [
    why.keywordRank !== undefined ? t('why.keywordRank', { rank: why.keywordRank }) : null,
    why.vectorRank !== undefined ? t('why.vectorRank', { rank: why.vectorRank }) : null,
    why.fusedRank !== undefined && why.keywordRank !== undefined && why.vectorRank !== undefined
      ? t('why.fusedRank', { rank: why.fusedRank })
      : null,
  ].filter((rank) => rank !== null)
  return (
    <details class="why" data-testid="source-why">
      <summary>{t('why.title')}</summary>
      <ul>
        {why.words.length > 0 ? (
          <li data-why="words">{t('why.words', { words: why.words.join(', ') })}</li>
        ) : null}
        {why.synonyms.length > 0 ? (
          <li data-why="synonyms">
            {t('why.synonyms', {
              pairs: why.synonyms
                .map((pair) => t('why.synonymPair', { said: pair.said, of: pair.for }))
                .join(', '),
            })}
          </li>
        ) : null}
        {byMeaningOnly || (why.words.length === 0 && why.synonyms.length === 0) ? (
          <li data-why="meaning">{t('why.noWords')}</li>
        ) : null}
        {ranks.length > 0 ? <li data-why="ranks">{t('why.ranks', { ranks: ranks.join(' · ') })}</li> : null}
        {why.rerankerProbability !== undefined ? (
          <li data-why="reranker">{t('why.reranker', { percent: percent(why.rerankerProbability) })}</li>
        ) : null}
      </ul>
    </details>
  )
}

/**
 * Why the question was answered or refused: the number that decided and the threshold it was
 * held against, and the signals that weighed most.
 */
export function DecisionWhyPanel({
  answerability,
  refused,
}: {
  answerability: Answerability
  refused: boolean
}) {
  const { t } = useApp()
  const threshold = answerability.threshold
  const byReranker = answerability.decidedBy === 'reranker' && answerability.rerankerProbability !== undefined
  return (
    <details class="why" data-testid="decision-why" open={refused}>
      <summary>{t(refused ? 'why.refusedTitle' : 'why.answeredTitle')}</summary>
      <ul>
        {byReranker ? (
          <li data-why="reranker">
            {t('why.byReranker', {
              percent: percent(answerability.rerankerProbability ?? 0),
              threshold: threshold === undefined ? '?' : percent(threshold),
            })}
          </li>
        ) : (
          <li data-why="words">
            {t('why.byWords', {
              percent: percent(answerability.probability),
              threshold: threshold === undefined ? '?' : percent(threshold),
            })}
          </li>
        )}
        {!byReranker && answerability.deciding && answerability.deciding.length > 0 ? (
          <li data-why="deciding">
            {t('why.deciding', {
              signals: answerability.deciding.map((name) => signalLabel(t, name)).join(', '),
            })}
          </li>
        ) : null}
        {answerability.calibrated ? <li data-why="calibrated">{t('why.calibrated')}</li> : null}
      </ul>
    </details>
  )
}
