import { useState } from 'preact/hooks'
import { uploadFile } from '../api.ts'
import type { Translate } from '../i18n.ts'
import type { Upload } from './upload-list.tsx'

export interface Uploads {
  list: Upload[]
  /** Uploads the files, into `collection` when given (else the default one). */
  add(files: File[], collection?: string): void
}

/**
 * This session's uploads, kept by the app (not the documents view) so switching views keeps them.
 * Each file is its own request: its own progress, and its own reason when refused.
 */
export function useUploads(t: Translate): Uploads {
  const [list, setList] = useState<Upload[]>([])
  const change = (key: string, update: Partial<Upload>) =>
    setList((current) => current.map((upload) => (upload.key === key ? { ...upload, ...update } : upload)))
  const add = (files: File[], collection?: string) => {
    for (const file of files) {
      const key = `${file.name}-${file.size}-${Date.now()}-${Math.random()}`
      setList((current) => [{ key, filename: file.name, state: 'uploading', fraction: 0 }, ...current])
      uploadFile(file, (fraction) => change(key, { fraction }), collection)
        .then((document) => change(key, { state: 'uploaded', documentId: document.id }))
        .catch((failure: Error) =>
          change(key, {
            state: 'rejected',
            error: failure.message === 'network' ? t('error.network') : failure.message,
          }),
        )
    }
  }
  return { list, add }
}
