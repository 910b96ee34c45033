import { useState } from 'preact/hooks'
import { originalLink, type Passage } from '../api.ts'
import { useApp } from '../app-context.ts'
import { highlight, quotePieces } from '../highlight.ts'
import { tableRowOf } from '../table-row.ts'
import { PageView } from './page-view.tsx'
import { SourceContext } from './source-context.tsx'
import { TableRowView } from './table-row-view.tsx'
import { SourceWhyPanel } from './why-panel.tsx'

/** Only the embedder found it: its word-evidence score says nothing about it. */
const byMeaningOnly = (passage: Passage) => passage.foundBy?.length === 1 && passage.foundBy[0] === 'vector'

/**
 * One cited passage: its source id, score, and the text with the question's words marked, and the
 * sentences an extractive answer was taken from (quotes) set off.
 */
export function PassageCard({
  passage,
  terms,
  quotes = [],
  anchor,
}: {
  passage: Passage
  terms: string[]
  quotes?: string[]
  anchor?: string
}) {
  const { t } = useApp()
  const original = originalLink(passage)
  const page = passage.regions?.[0]?.page
  const [onPage, setOnPage] = useState(false)
  const row = tableRowOf(passage.sourceId, passage.text)
  return (
    <li
      class="card passage"
      id={anchor}
      data-source-id={passage.sourceId}
      data-collection={passage.collection ?? ''}
    >
      <div class="row">
        <span class="source-id">
          <span class="marker">[{passage.rank}]</span> {passage.sourceId}
          {passage.lines ? (
            <span class="lines muted" data-testid="source-lines">
              {' '}
              · {t('source.lines', { from: passage.lines.from, to: passage.lines.to })}
            </span>
          ) : null}
          {passage.collection ? (
            <span class="collection muted" title={t('source.collection')}>
              {' '}
              · {passage.collection}
            </span>
          ) : null}
        </span>
        <span class="muted score">
          {byMeaningOnly(passage) ? (
            <span class="by-meaning" data-found-by="vector">
              {t('source.byMeaning')} ·{' '}
            </span>
          ) : null}
          {t('source.score', { score: passage.score.toFixed(3) })}
        </span>
      </div>
      {original ? (
        <a class="original" href={original} target="_blank" rel="noopener noreferrer" data-action="original">
          {t('source.open')}
        </a>
      ) : null}
      {passage.heading ? <div class="muted heading">{passage.heading}</div> : null}
      {row ? (
        <TableRowView
          row={row}
          testId="table-row"
          cell={(value) => <Highlighted text={value} terms={terms} />}
        />
      ) : null}
      <p class={row ? 'text muted' : 'text'}>
        {quotePieces(passage.text, quotes).map((piece, index) =>
          piece.match ? (
            <mark key={index} class="quote" data-testid="answer-quote">
              <Highlighted text={piece.text} terms={terms} />
            </mark>
          ) : (
            <Highlighted key={index} text={piece.text} terms={terms} />
          ),
        )}
      </p>
      {passage.parentText && passage.parentText !== passage.text ? (
        <details>
          <summary>{t('source.section')}</summary>
          <p class="text">
            <Highlighted text={passage.parentText} terms={terms} />
          </p>
        </details>
      ) : null}
      {page !== undefined && passage.regions ? (
        <>
          <button type="button" class="link" data-action="page" onClick={() => setOnPage(!onPage)}>
            {onPage ? t('source.hidePage') : t('source.showPage', { page: String(page) })}
          </button>
          {onPage ? <PageView passage={passage} page={page} regions={passage.regions} /> : null}
        </>
      ) : null}
      {passage.why ? <SourceWhyPanel why={passage.why} byMeaningOnly={byMeaningOnly(passage)} /> : null}
      <SourceContext passage={passage} />
    </li>
  )
}

function Highlighted({ text, terms }: { text: string; terms: string[] }) {
  return (
    <>
      {highlight(text, terms).map((piece, index) =>
        piece.match ? <mark key={index}>{piece.text}</mark> : piece.text,
      )}
    </>
  )
}
