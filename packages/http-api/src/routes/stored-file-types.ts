/** What a browser is told a stored original is. */
export const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  jsonl: 'application/x-ndjson',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
}
export const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
}

/** Every media type GET /documents/{id}/file may answer with (the API reference lists them). */
export const STORED_FILE_MEDIA_TYPES = [
  ...new Set(
    [...Object.values(CONTENT_TYPES), ...Object.values(IMAGE_TYPES), 'application/octet-stream'].map(
      (type) => type.split(';')[0] ?? type,
    ),
  ),
]
