import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'

/** The collections the signed-in key may read (for a picker), read once when the view opens. */
export function useCollections(): string[] {
  const [collections, setCollections] = useState<string[]>([])
  useEffect(() => {
    api
      .listCollections()
      .then(({ collections }) => setCollections(collections.map((collection) => collection.name)))
      .catch(() => undefined)
  }, [])
  return collections
}
