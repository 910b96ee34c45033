import { useEffect, useState } from 'preact/hooks'
import { api, collectionsOf } from '../api.ts'

/** The collections documents are in (for a picker), read once when the view opens. */
export function useCollections(): string[] {
  const [collections, setCollections] = useState<string[]>([])
  useEffect(() => {
    api
      .listDocuments()
      .then(({ documents }) => setCollections(collectionsOf(documents)))
      .catch(() => undefined)
  }, [])
  return collections
}
