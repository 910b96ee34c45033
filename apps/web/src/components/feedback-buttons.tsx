import { FEEDBACK_REASONS, type FeedbackReason } from '@rag/api-contract/enums'
import { MAX_FEEDBACK_COMMENT_CHARS } from '@rag/api-contract/limits'
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { useApp } from '../app-context.ts'
import type { MessageKey } from '../i18n.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'

/**
 * 👍 / 👎 under an answer. 👍 is sent at once; 👎 asks why (a reason, a comment) before it is sent.
 * What was said stays shown; saying it again replaces it.
 */
export function FeedbackButtons({ questionId }: { questionId: string }) {
  const { t } = useApp()
  const [asking, setAsking] = useState(false)
  const [reason, setReason] = useState<FeedbackReason | ''>('')
  const [comment, setComment] = useState('')
  const [sent, setSent] = useState<'up' | 'down' | null>(null)
  const [error, setError] = useState<string | null>(null)

  const send = async (verdict: 'up' | 'down') => {
    setError(null)
    try {
      await api.giveFeedback(questionId, {
        verdict,
        ...(verdict === 'down' && reason ? { reason } : {}),
        ...(verdict === 'down' && comment.trim() ? { comment: comment.trim() } : {}),
      })
      setSent(verdict)
      setAsking(false)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }

  return (
    <div class="feedback" data-testid="feedback">
      <button
        type="button"
        class={sent === 'up' ? 'chosen' : ''}
        aria-pressed={sent === 'up'}
        aria-label={t('feedback.up')}
        data-testid="feedback-up"
        onClick={() => send('up')}
      >
        {/* Words beside the emoji: without an emoji font the emoji alone is an empty box. */}
        <span aria-hidden="true">👍</span> {t('feedback.upShort')}
      </button>
      <button
        type="button"
        class={sent === 'down' ? 'chosen' : ''}
        aria-pressed={sent === 'down'}
        aria-label={t('feedback.down')}
        data-testid="feedback-down"
        onClick={() => setAsking(true)}
      >
        <span aria-hidden="true">👎</span> {t('feedback.downShort')}
      </button>
      {sent ? (
        <span class="muted" data-testid="feedback-sent">
          {t('feedback.thanks')}
        </span>
      ) : null}
      {asking ? (
        <form
          class="feedback-why"
          onSubmit={(event) => {
            event.preventDefault()
            void send('down')
          }}
        >
          <label>
            {t('feedback.reason')}
            <select
              value={reason}
              data-testid="feedback-reason"
              onChange={(event) =>
                setReason((event.target as HTMLSelectElement).value as FeedbackReason | '')
              }
            >
              <option value="">—</option>
              {FEEDBACK_REASONS.map((name) => (
                <option key={name} value={name}>
                  {t(`feedback.reason.${name}` as MessageKey)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('feedback.comment')}
            <input
              type="text"
              maxLength={MAX_FEEDBACK_COMMENT_CHARS}
              value={comment}
              data-testid="feedback-comment"
              onInput={(event) => setComment((event.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit" data-testid="feedback-send">
            {t('feedback.send')}
          </button>
        </form>
      ) : null}
      {error ? <ErrorMessage message={error} /> : null}
    </div>
  )
}
