import { useApp } from '../app-context.ts'

/** A choice of one collection, or none ('' = all of them), labelled. */
export function CollectionSelect({
  label,
  allLabel,
  collections,
  value,
  onChange,
  testId,
}: {
  label: string
  allLabel: string
  collections: string[]
  value: string
  onChange: (collection: string) => void
  testId: string
}) {
  return (
    <label>
      {label}{' '}
      <select data-testid={testId} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        <option value="">{allLabel}</option>
        {collections.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  )
}

/** Where a search or a question looks: every collection, or one (shown once there are several). */
export function SearchScope({
  collections,
  value,
  onChange,
  testId,
}: {
  collections: string[]
  value: string
  onChange: (collection: string) => void
  testId: string
}) {
  const { t } = useApp()
  if (collections.length < 2) return null
  return (
    <CollectionSelect
      label={t('search.collection')}
      allLabel={t('chat.allCollections')}
      collections={collections}
      value={value}
      onChange={onChange}
      testId={testId}
    />
  )
}
