import type { ApiSectionsPage } from '@rag/api-contract'
import { useState } from 'preact/hooks'
import { api, type Passage } from '../api.ts'
import { useApp } from '../app-context.ts'
import { quotePieces } from '../highlight.ts'
import { messageOf } from './error-message.tsx'

type Section = ApiSectionsPage['sections'][number]

/**
 * A cited row, slide, page or section shown in its document: the sections around it, the cited one
 * set apart with the passage marked in it (a CSV row among its neighbours, a slide in its deck).
 */
export function SourceContext({ passage }: { passage: Passage }) {
  const { t } = useApp()
  const [sections, setSections] = useState<Section[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const toggle = async () => {
    if (sections) return setSections(null)
    try {
      setSections((await api.sectionsAround(passage.documentId, passage.sourceId)).sections)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  return (
    <div class="source-context">
      <button type="button" class="link" data-action="context" onClick={toggle}>
        {sections ? t('source.hideContext') : t('source.showContext')}
      </button>
      {error ? <p role="alert">{error}</p> : null}
      {sections ? (
        <ol class="context" data-testid="context">
          {sections.map((section) => {
            const cited = section.sourceId === passage.sourceId
            return (
              <li key={section.sourceId} class={cited ? 'cited' : ''} data-source-id={section.sourceId}>
                <span class="source-id">{section.sourceId}</span>
                {section.ocr ? <span class="badge"> OCR</span> : null}
                <p class="text">
                  {cited
                    ? quotePieces(section.text, [passage.text]).map((piece, index) =>
                        piece.match ? <mark key={index}>{piece.text}</mark> : piece.text,
                      )
                    : section.text}
                </p>
              </li>
            )
          })}
        </ol>
      ) : null}
    </div>
  )
}
