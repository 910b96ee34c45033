import { useApp } from '../app-context.ts'

/** `#/documents/synonyms/<collection>`: the Documents view, showing that collection and its synonyms. */
const SYNONYMS_HASH = '#/documents/synonyms/'

/** The collection a synonyms link opened the Documents view on, if one did. */
export function synonymsCollectionFromHash(hash: string): string | null {
  if (!hash.startsWith(SYNONYMS_HASH)) return null
  return decodeURIComponent(hash.slice(SYNONYMS_HASH.length)) || null
}

/**
 * A link to a collection's synonyms editor, from wherever a miss is seen (Feedback, Evaluation,
 * the collections list): the fix for a question worded unlike its documents is one rule there.
 */
export function SynonymsLink({ collection }: { collection: string }) {
  const { t } = useApp()
  return (
    <a href={`${SYNONYMS_HASH}${encodeURIComponent(collection)}`} data-testid="synonyms-link">
      {t('synonyms.link', { collection })}
    </a>
  )
}
