import { useEffect, useState } from 'preact/hooks'
import { api, type EvaluationQuestionsPage } from '../api.ts'
import { useApp } from '../app-context.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'

type Outcome = EvaluationQuestionsPage['questions'][number]

/**
 * One configuration's questions, 50 at a time (a run may hold 50,000): the question, the source
 * expected, what came first and what was answered; "wrong only" shows what to look at.
 */
export function EvaluationQuestions({ runId, config }: { runId: string; config: string }) {
  const { t } = useApp()
  const [wrongOnly, setWrongOnly] = useState(true)
  const [questions, setQuestions] = useState<Outcome[]>([])
  const [total, setTotal] = useState(0)
  const [next, setNext] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = async (offset: number) => {
    try {
      const page = await api.evaluationQuestions(runId, config, { offset, wrong: wrongOnly })
      setQuestions((shown) => (offset === 0 ? page.questions : [...shown, ...page.questions]))
      setTotal(page.total)
      setNext(page.next ? offset + page.questions.length : null)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  useEffect(() => {
    void load(0)
  }, [runId, config, wrongOnly])
  return (
    <section data-testid="evaluation-questions">
      <h3>{t('eval.questions', { n: total })}</h3>
      <label class="check">
        <input
          type="checkbox"
          checked={wrongOnly}
          onChange={(event) => setWrongOnly((event.target as HTMLInputElement).checked)}
          data-testid="evaluation-wrong-only"
        />
        {t('eval.wrongOnly')}
      </label>
      <ErrorMessage message={error} />
      <div class="table-scroll">
        <table class="evaluation-questions">
          <thead>
            <tr>
              <th>{t('eval.question')}</th>
              <th>{t('eval.expected')}</th>
              <th>{t('eval.first')}</th>
              <th>{t('eval.answered')}</th>
            </tr>
          </thead>
          <tbody>
            {questions.map((question) => (
              <tr
                key={question.id}
                class={question.correct ? 'right' : 'wrong'}
                data-correct={String(question.correct)}
              >
                <td>{question.query}</td>
                <td>
                  {question.expectedSource ??
                    (question.answerable ? question.gold.join(', ') : t('eval.refuse'))}
                </td>
                <td>{question.sources[0]?.sourceId ?? '–'}</td>
                <td>{question.refused ? t('ask.refused') : (question.answer ?? '').slice(0, 200)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {next !== null ? (
        <button type="button" data-action="more" onClick={() => void load(next)}>
          {t('inspect.more')}
        </button>
      ) : null}
    </section>
  )
}
