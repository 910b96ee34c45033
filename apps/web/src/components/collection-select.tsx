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
